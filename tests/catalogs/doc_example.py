#!/usr/bin/env python3
"""Print the annotated example of docs/catalog-format.md as plain JSON (its // comments cut),
so the transcript can check that the documented example is a valid catalog."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
block = text.split("```jsonc\n", 1)[1].split("```", 1)[0]
sys.stdout.write(re.sub(r"\s*//[^\n]*", "", block))
