"""The performance tools: ./workbook bench (bench.py), the book comparison,
the profile report and where a CTest run's time went."""
