"""Files, configuration, the cache and notebooks: what devlint is asked to check."""
