"""`verify --profile` in the parent: what each accelerator row's profiler (profiler.py) saw,
per training step, as text, JSON and a plot panel, with one line of advice per kind (and the
static rule's code where one covers it). Never imports torch.

A site's rate: the profiler files a call under the step in progress when it ran, and a call
after `optimizer.step()` (the usual `print(loss.item())`) lands in the next step's window, the
last one after the last step. So a site is "N per step" when every window from the second to
the last step's holds N of its calls: the first window also holds the set-up (the model's
move), the one after the last step what the script does once training ends.
"""
from __future__ import annotations

from typing import Callable, Optional

from devlint.lint.report.columns import aligned

H2D, D2H = "h2d", "d2h"
DIRECTIONS = ((H2D, "host to device"), (D2H, "device to host"))

# kind -> (rule code or "", advice); `{op}` is the call as the report names it
ADVICE = {
    "read": ("", "`{code}` on every step waits for the device: keep the value on the device "
                 "(`total += loss.detach()`) and read it every N steps"),
    "print": ("", "printing a device tensor (`{code}`) on every step copies it back and "
                  "waits: print every N steps"),
    "truth": ("", "`{code}` waits for the device to decide: keep the decision on the device "
                  "(torch.where, a mask) or check every N steps"),
    "copy-back": ("", "`{code}` copies back and waits on every step: collect on the device, "
                      "copy back once per epoch"),
    "size": ("", "`{code}` has a size only the device knows, so the host waits: a fixed-size "
                 "mask (torch.where) does not"),
    "synchronize": ("", "`{code}` on every step drains the device's queue: keep it to timing "
                        "code"),
    "other-sync": ("", "torch's sync debug mode saw the host wait for the device here on every "
                       "step"),
    "model": ("DEV007", "`{code}` runs on every step: move the model once, before the loop (a "
                        "move back, to save it, is copied again each time)"),
    "from-data": ("", "`{code}` builds and copies a tensor on every step: build it once before "
                      "the loop, or with device= (one copy, no CPU tensor)"),
    "created": ("", "`{code}` copies Python data to the device on every step: build it once "
                    "before the loop if it does not change"),
    "batch": ("", "`{code}` copies from pageable memory and blocks: DataLoader(pin_memory=True) "
                  "and .to(device, non_blocking=True) overlap it with compute"),
}


def rate(site: dict, steps: int) -> Optional[int]:
    """N when the site made N calls in every step (see the module's docstring), else None."""
    windows = site["by_step"][1:steps]
    if steps >= 3 and windows and windows[0] > 0 and all(w == windows[0] for w in windows):
        return windows[0]
    if steps in (1, 2) and site["count"] >= steps and site["count"] % steps == 0:
        return site["count"] // steps
    return None


def describe_rate(site: dict, steps: int) -> str:
    per_step = rate(site, steps)
    if per_step is not None:
        return f"{per_step} per step"
    if site["count"] == 1:
        return "once"
    return f"{site['count']} in {steps} steps"


def summarize(profile: dict) -> dict:
    """Per direction and for the waits: calls and bytes per step (the sites that recur on
    every step), and the advice, one line per kind."""
    steps = profile.get("steps", 0)
    sites = profile.get("sites", [])
    timed = profile.get("timed", False)
    out: dict = {"steps": steps, "timed": timed}
    for key, chosen in ((H2D, lambda s: s["direction"] == H2D),
                        (D2H, lambda s: s["direction"] == D2H),
                        ("sync", lambda s: s["sync"])):
        out[key] = per_step_totals(sites, steps, chosen, timed)
    out["advice"] = advice(sites, steps)
    return out


def per_step_totals(sites: list[dict], steps: int, chosen, timed: bool) -> dict:
    """Calls, bytes and (timed) seconds per step of the chosen sites that recur every step."""
    calls = nbytes = 0
    seconds = 0.0
    for site in filter(chosen, sites):
        n = rate(site, steps)
        if n is None:
            continue
        calls += n
        nbytes += site["bytes"] * n // max(site["count"], 1)
        seconds += (site.get("time_s") or 0.0) * n / max(site["count"], 1)
    return {"per_step": calls, "bytes_per_step": nbytes,
            "time_s_per_step": seconds if timed else None}


def advice(sites: list[dict], steps: int) -> list[dict]:
    """One line per kind, at the first site of that kind that recurs on every step (a batch
    copy only when it blocks: pageable memory or no non_blocking)."""
    said: dict[str, dict] = {}
    for site in sites:
        kind = site["kind"]
        if kind in said or kind not in ADVICE or rate(site, steps) is None:
            continue
        if kind == "batch" and not site.get("blocking"):
            continue
        code, text = ADVICE[kind]
        said[kind] = {"kind": kind, "path": site["path"], "line": site["line"],
                      "code": code or None,
                      "text": text.format(code=shown(site))}
    return list(said.values())


def shown(site: dict, width: int = 48) -> str:
    """The call as the script spells it, cut to `width` (a model built inline is long)."""
    code = site["code"] or site["op"]
    return code if len(code) <= width else code[:width - 3] + "..."


def profile_dict(summary) -> dict:
    """The JSON of a row: the profiler's sites (each with its rate) and the summary."""
    profile = summary.run.profile
    if not profile:
        return {}
    steps = profile.get("steps", 0)
    sites = [dict(site, per_step=rate(site, steps), rate=describe_rate(site, steps))
             for site in profile.get("sites", [])]
    return {"profile": dict(profile, sites=sites, summary=summarize(profile))}


def profile_lines(result, location: Callable[[str, int, object], str],
                  row_label: Callable[[object], str]) -> list[str]:
    """Each profiled row's block; under torchrun, ranks of a device whose blocks are the same
    share one ("ranks 0, 1")."""
    blocks: list[tuple[list, tuple]] = []  # (runs, the block's lines after its name)
    for device_summary in result.devices:
        run = device_summary.run
        if not run.profile:
            continue
        lines = tuple(_row_lines(run.profile, result, location, "\0"))
        same = next((runs for runs, seen in blocks if seen == lines
                     and runs[0].device == run.device and run.rank is not None), None)
        if same is not None:
            same.append(run)
        else:
            blocks.append(([run], lines))
    out: list[str] = []
    for runs, lines in blocks:
        name = row_label(runs[0])
        if len(runs) > 1:
            name = name.rsplit(" rank ", 1)[0] + " ranks " + ", ".join(str(r.rank) for r in runs)
        out += [line.replace("\0", name) for line in lines]
    return out


def _row_lines(profile: dict, result, location, name: str) -> list[str]:
    if profile.get("error"):
        return [f"profile, {name}: not measured: {profile['error']}", ""]
    steps = profile.get("steps", 0)
    summary = summarize(profile)
    timed = summary["timed"]
    how = "times measured on the GPU" if timed else (
        "counts and bytes only (simulated: no times)")
    out = [f"profile, {name}: per training step over {steps} step{'s' * (steps != 1)}; {how}"]
    sites = profile.get("sites", [])

    def where(site: dict) -> str:
        return location(site["path"], site["line"], result) if site["path"] else "(unknown)"

    def rows(chosen: list[dict], with_bytes: bool) -> list[str]:
        table = []
        for site in sorted(chosen, key=lambda s: rate(s, steps) is None):
            cells = [where(site), shown(site), describe_rate(site, steps)]
            if with_bytes:
                cells.append(_bytes(site["bytes"] // max(site["count"], 1))
                             + (" each" if site["count"] > 1 else ""))
            if timed and site.get("time_s") is not None:
                cells.append(f"{site['time_s'] * 1000 / max(site['count'], 1):.3g} ms each")
            cells.append(_note(site))
            table.append(cells)
        return ["        " + line for line in aligned(table)] if table else []

    for direction, words in DIRECTIONS:
        chosen = [s for s in sites if s["direction"] == direction]
        if not chosen:
            out.append(f"    {words}: no copies")
            continue
        total = summary[direction]
        out.append(f"    {words}: {total['per_step']} cop{'y' if total['per_step'] == 1 else 'ies'}"
                   f" per step, {_bytes(total['bytes_per_step'])} per step"
                   + _time(total["time_s_per_step"]))
        out += rows(chosen, True)
    idle = [s for s in sites if s["direction"] is None and not s["sync"]]
    if idle:
        out.append("    calls that copied nothing:")
        out += rows(idle, False)
    waits = [s for s in sites if s["sync"]]
    total = summary["sync"]
    out.append(f"    syncs (the host waits for the device): {total['per_step']} per step"
               + _time(total["time_s_per_step"]) if waits else
               "    syncs (the host waits for the device): none")
    out += rows(waits, False)
    if summary["advice"]:
        out.append("    advice:")
        for line in summary["advice"]:
            code = f" ({line['code']})" if line["code"] else ""
            out.append(f"        {location(line['path'], line['line'], result)}{code}: "
                       f"{line['text']}")
    return out + [""]


def _note(site: dict) -> str:
    kind = site["kind"]
    if kind == "batch":
        return "batch" + (", blocking" if site.get("blocking") else ", pinned, non_blocking")
    if kind == "model":
        return (f"model ({site['tensors']} tensors)" if site.get("tensors") else
                "model, already on the device")
    return {"from-data": "from Python data", "created": "from Python data",
            "other-sync": "torch sync debug mode"}.get(kind, "")


def _time(seconds: Optional[float]) -> str:
    return "" if seconds is None else f", {seconds * 1000:.3g} ms per step"


def _bytes(value: float) -> str:
    for size, unit in ((2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


def profiled(result) -> list:
    return [s for s in result.devices if s.run.profile]


def draw_panel(axes, result, row_label: Callable[[object], str]) -> None:
    """Where a step's time goes, by what the profile saw: on a real GPU the milliseconds per
    step of copies and waits beside the rest of the step; on cuda-sim (no times) the copies
    and syncs per step, labelled as counts."""
    rows = profiled(result)
    labels = [row_label(s.run) for s in rows]
    summaries = [summarize(s.run.profile) for s in rows]
    if all(summary["timed"] for summary in summaries):
        # a wait that is also a copy back (.item()) is drawn once, as a wait
        parts = [(name, [per_step_totals(s.run.profile["sites"], s.run.profile["steps"], chosen,
                                         True)["time_s_per_step"] * 1000 for s in rows])
                 for name, chosen in (
                     ("host to device", lambda s: s["direction"] == H2D),
                     ("device to host, not waited for",
                      lambda s: s["direction"] == D2H and not s["sync"]),
                     ("syncs (waits)", lambda s: s["sync"]))]
        rest = [max((s.median_step_s or 0.0) * 1000 - sum(p[1][i] for p in parts), 0.0)
                for i, s in enumerate(rows)]
        bottom = [0.0] * len(rows)
        for name, values in [("rest of the step", rest), *parts]:
            axes.bar(labels, values, bottom=bottom, label=name)
            bottom = [b + v for b, v in zip(bottom, values)]
        axes.set_ylabel("ms per step")
        axes.set_title("where a step's time goes (profile)")
    else:
        width = 0.25
        for offset, (name, key) in enumerate((("host-to-device copies", H2D),
                                              ("device-to-host copies", D2H),
                                              ("syncs", "sync"))):
            axes.bar([i + (offset - 1) * width for i in range(len(rows))],
                     [s[key]["per_step"] for s in summaries], width, label=name)
        axes.set_xticks(range(len(rows)), labels)
        axes.set_ylabel("calls per step (counts: simulated, no times)")
        axes.set_title("where a step's time goes: copies and syncs")
    axes.legend(fontsize=8)
