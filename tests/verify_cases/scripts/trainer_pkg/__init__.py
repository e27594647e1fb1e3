"""A package whose training entry point runs as `python -m trainer_pkg.train`."""
