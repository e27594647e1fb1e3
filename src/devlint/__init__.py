"""devlint: find and fix PyTorch device-placement bugs before they cost a GPU job."""

__version__ = "0.1.0"
