"""Python helpers behind ./workbook: exercises, CTest results, progress."""
