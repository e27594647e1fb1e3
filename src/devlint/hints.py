"""What to install for the parts that need more than the linter, phrased so that it works from
a checkout (devlint is not on a package index yet) and never pulls a multi-GB CUDA build."""

TORCH = ("pip install torch --index-url https://download.pytorch.org/whl/cpu (the CPU-only "
         "wheel), or pip install '.[verify]' in a devlint checkout")
MATPLOTLIB = "pip install matplotlib, or pip install '.[verify]' in a devlint checkout"
