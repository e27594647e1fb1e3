"""`devlint verify`: run a training script on every device, compare losses, time the steps.

Only the child process (`devlint.verify.child`) imports torch.
"""
