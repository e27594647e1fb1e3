"""Console logging of training statistics."""


def log_q_stats(step, loss, q_values):
    q = q_values.numpy()  # expect: DEV011
    print(f"step {step}: loss {loss:.4f} q mean {q.mean():.3f} q max {q.max():.3f}")
