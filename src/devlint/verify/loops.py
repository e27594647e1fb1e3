"""Every loop runs, shortened (issue 31): past a cap, the script's loops end as they would at the
end of their data, and the code after them (evaluation, saving, plotting) runs.

The mechanism is loop instrumentation of the script's own code, in the verify child only. Before
the script is compiled, its AST is rewritten (line numbers unchanged):

    for x in ITERABLE:   ->  for x in __devlint_loops__.iterate(ITERABLE, LINE):
    while COND:          ->  __devlint_loop_N__ = __devlint_loops__.loop(LINE)
                             while __devlint_loop_N__.more() and COND:

Each time a loop statement starts, it notes how far the run had got (optimizer steps, or
backward() calls in a loop without an optimizer; each loader's finished epochs). Once a cap is
reached (`--max-steps` steps, or a loader finished `--max-epochs` epochs), a loop whose own run
made that progress ends at its next iteration: no further item is pulled, `else:` runs as at the
end of the data, and the loops around it end the same way. A loop started after the cap (the
evaluation, a test loop) runs, as its own progress starts from there. Loops in generator
functions (which produce data for a consumer's loop), in `forward`/`__call__`, in the methods of
an `nn.Module` subclass and in functions decorated for compilation (torch.compile traces them)
are left as they are.

A loop the rewrite does not see (another module's, a library's trainer) is stopped by the
backstop: the run ends where the step count reaches BACKSTOP times `--max-steps`, or a loader
would start epoch BACKSTOP times `--max-epochs` + 1, recorded as a cut. Imports no torch.
"""
from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator

NAME = "__devlint_loops__"
BACKSTOP = 2  # the hard stop, as a multiple of --max-steps and --max-epochs
_NOT_INSTRUMENTED = ("forward", "__call__")


# -- the rewrite ---------------------------------------------------------------------------------
def instrument(tree: ast.Module) -> ast.Module:
    """The script's tree with its step and epoch loops made endable; line numbers unchanged."""
    _Rewriter().visit(tree)
    return ast.fix_missing_locations(tree)


class _Rewriter(ast.NodeTransformer):
    def __init__(self) -> None:
        self.whiles = 0
        self.skip = [False]  # inside a function whose loops are left alone

    def _function(self, node):
        self.skip.append(self.skip[-1] or _leave_alone(node))
        self.generic_visit(node)
        self.skip.pop()
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node):
        """A model's code (an nn.Module's methods) is left alone: torch.compile traces it, and
        no step loop runs inside a forward pass."""
        self.skip.append(self.skip[-1] or any(
            ast.unparse(base).endswith("Module") for base in node.bases))
        self.generic_visit(node)
        self.skip.pop()
        return node

    def visit_Lambda(self, node):
        return node

    def visit_For(self, node: ast.For):
        self.generic_visit(node)
        if self.skip[-1]:
            return node
        call = ast.Call(func=ast.Attribute(value=ast.Name(NAME, ast.Load()), attr="iterate",
                                           ctx=ast.Load()),
                        args=[node.iter, ast.Constant(node.lineno)], keywords=[])
        node.iter = ast.copy_location(call, node.iter)
        return node

    def visit_While(self, node: ast.While):
        self.generic_visit(node)
        if self.skip[-1]:
            return node
        self.whiles += 1
        name = f"__devlint_loop_{self.whiles}__"
        start = ast.Assign(targets=[ast.Name(name, ast.Store())], value=ast.Call(
            func=ast.Attribute(value=ast.Name(NAME, ast.Load()), attr="loop", ctx=ast.Load()),
            args=[ast.Constant(node.lineno)], keywords=[]))
        more = ast.Call(func=ast.Attribute(value=ast.Name(name, ast.Load()), attr="more",
                                           ctx=ast.Load()), args=[], keywords=[])
        node.test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[more, node.test]),
                                      node.test)
        return [ast.copy_location(start, node), node]


def _leave_alone(function) -> bool:
    if function.name in _NOT_INSTRUMENTED:
        return True
    if any("compile" in ast.unparse(d) or "jit" in ast.unparse(d)
           for d in function.decorator_list):
        return True
    return _is_generator(function)


def _is_generator(function) -> bool:
    """A `yield` in the function's own body (not in a nested function or class)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


# -- at run time ---------------------------------------------------------------------------------
class Loops:
    """What the rewritten loops ask: has a cap been reached by progress made inside them? The
    recorder reports steps (`step`, `cap`), the loader caps finished epochs (`epoch_done`)."""

    def __init__(self, max_epochs: int) -> None:
        self.max_epochs = max_epochs
        self.steps = 0  # step boundaries so far (optimizer steps, or backward() calls)
        self.epochs: list = []  # a key per finished loader epoch, in order
        self.capped = ""  # the first cap reached: "steps" | "epochs" ("" before)
        self.steps_capped = False  # --max-steps reached (maybe after the epoch cap)
        self.cut: dict[int, dict] = {}  # line -> what ended that loop

    # progress, from the recorder and the loader caps
    def step(self) -> None:
        self.steps += 1

    def cap(self, reason: str) -> None:
        self.steps_capped = self.steps_capped or reason == "steps"
        self.capped = self.capped or reason

    def epoch_done(self, key: Any, epochs: int) -> None:
        self.epochs.append(key)
        if self.max_epochs and epochs >= self.max_epochs:
            self.cap("epochs")

    # the rewritten loops
    def loop(self, line: int) -> "Loop":
        return Loop(self, line)

    def iterate(self, iterable: Iterable, line: int) -> Iterator:
        iterator = iter(iterable)  # raises where the script's own `for` would
        return _ended_at_cap(iterator, Loop(self, line))

    def report(self) -> dict:
        return {"cuts": sorted(self.cut.values(), key=lambda cut: cut["line"])}


class Loop:
    """One run of one loop statement."""

    __slots__ = ("loops", "line", "steps", "epochs", "iterations")

    def __init__(self, loops: Loops, line: int) -> None:
        self.loops, self.line = loops, line
        self.steps, self.epochs = loops.steps, len(loops.epochs)
        self.iterations = 0

    def more(self) -> bool:
        """Before each iteration of a `while`: False ends the loop at a cap."""
        if self.loops.capped and self.reached():
            return False
        self.iterations += 1
        return True

    def reached(self) -> bool:
        """A cap was reached and this loop's own run made the progress that reached it."""
        loops = self.loops
        reason = ""
        if loops.max_epochs:
            finished: dict = {}
            for key in loops.epochs[self.epochs:]:
                finished[key] = finished.get(key, 0) + 1
            if finished and max(finished.values()) >= loops.max_epochs:
                reason = "epochs"
        if not reason and loops.steps_capped and loops.steps > self.steps:
            reason = "steps"
        if not reason:
            return False
        cut = loops.cut.setdefault(self.line, {"line": self.line, "reason": reason,
                                               "iterations": self.iterations, "times": 0,
                                               "steps": loops.steps})
        cut["times"] += 1
        return True


def _ended_at_cap(iterator: Iterator, loop: Loop) -> Iterator:
    loops = loop.loops
    for item in iterator:
        loop.iterations += 1
        yield item
        if loops.capped and loop.reached():
            return
