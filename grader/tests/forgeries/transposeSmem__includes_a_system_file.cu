// forgery: includes a system file by a directive split by a backslash, a space and a newline, so that the compile error quotes its lines into the student's summary.txt and results.json: before the preprocessor decided includes (in a sandbox without it), it compiled and failed, quoting the file
// exercise: transpose/transposeSmem
// base: starter
// expect: refused /etc/passwd
// must-not-show: /etc/passwd
#inc\ 
lude "/etc/passwd"
