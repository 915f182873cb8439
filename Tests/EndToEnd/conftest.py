import sys
from pathlib import Path

# The tests import support.py from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))
