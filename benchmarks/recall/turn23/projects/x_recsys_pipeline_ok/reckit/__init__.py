"""reckit: session-based next-item recommendation."""
