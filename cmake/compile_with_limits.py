#!/usr/bin/env python3
# PLACEHOLDER (being written by a helper): runs the command after "--".
import os, sys
args = sys.argv[sys.argv.index("--") + 1:]
os.execvp(args[0], args)
