"""What to install for the parts that need more than the linter, phrased so that it works from
a checkout (devlint is not on a package index yet) and never pulls a multi-GB CUDA build."""

TORCH = ("pip install torch --index-url https://download.pytorch.org/whl/cpu (the CPU-only "
         "wheel), or pip install '.[verify]' in a devlint checkout")
MATPLOTLIB = "pip install matplotlib, or pip install '.[verify]' in a devlint checkout"


def did_you_mean(word: str, candidates, cutoff: float = 0.6) -> str:
    """` (did you mean 'select'?)` for a misspelt option, code, rule or key, or "" when nothing
    is close (difflib's ratio, as Python's own NameError suggestions)."""
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return f" (did you mean {close[0]!r}?)" if close else ""
