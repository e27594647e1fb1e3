#!/usr/bin/env bash
# The checks that need a CUDA GPU, as one run for the device tool (a drawn task gets ~15 minutes
# of GPU time in all, so everything goes in one command). Results land in $OUT.
#
# The device image has torch (CUDA), pytest, matplotlib, numpy, hypothesis, but not libcst,
# which `devlint verify` needs to explain failures. Before the call, here:
#   echo /.whl/ >> .git/info/exclude
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl libcst==1.9.0
# then run (carry: [".whl"], timeout_s: 540):
#   bash scripts/device_checks.sh              (every step)
#   bash scripts/device_checks.sh new_kinds    (the steps named: bench bench_script pytest_gpu
#                                              verify profile new_kinds)
# The device image has torchmetrics, tokenizers and transformers, so every script of step
# new_kinds runs there (the CPU test suite skips the two that need them when they are absent).
set -uo pipefail
OUT="${OUT:-device-out}"
mkdir -p "$OUT"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl && export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch; print(torch.__version__, torch.cuda.is_available())" | tee -a "$OUT/gpu.txt"

# 1. The crossover (issue 11): the whole sweep on cpu and cuda, table, JSON and plot.
step_bench() {
    timeout 200 python3 -m devlint bench --budget 150 --plot "$OUT/bench-gpu.png" 2>&1 | tee "$OUT/bench.txt"
    timeout 100 python3 -m devlint bench --budget 60 --json -q > "$OUT/bench.json"
}
# 2. A user's script timed on both devices.
step_bench_script() {
    timeout 60 python3 -m devlint bench examples/large_mlp.py --json -q > "$OUT/bench-script.json"
}
# 3. The tests that skip without CUDA.
step_pytest_gpu() {
    timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_bench.py tests/test_verify.py \
        -k "gpu or cuda" 2>&1 | tee "$OUT/pytest-gpu.txt"
}
# 4. Issue 21 on a real GPU: verify's cuda rows for the cases where a GPU differs from the
#    simulated one (AMP dtypes, compile, NCCL, workers), and the three devices side by side.
step_verify() {
    timeout 240 python3 tests/verify_cases/cases.py amp_ok.py amp_dtype_bug.py amp_bce_bug.py \
        torch_compile.py ddp_single_rank.py dataloader_workers.py validation_only_bug.py \
        mps_or_cpu.py 2>&1 | tee "$OUT/verify-cases-gpu.md"
    timeout 90 python3 -m devlint verify examples/seed_loop.py --devices cpu,cuda,cuda-sim --json -q \
        > "$OUT/verify-seed-gpu.json"
}
# 5. Issue 34 on a real GPU: `verify --profile` times every copy and sync of each cause (the
#    test), and the seed loop's profile on cuda beside cuda-sim's, text and plot.
step_profile() {
    timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_verify_profile.py 2>&1 \
        | tee "$OUT/pytest-profile-gpu.txt"
    timeout 90 python3 -m devlint verify examples/seed_loop.py --devices cpu,cuda,cuda-sim --profile -q \
        --plot "$OUT/verify-profile-gpu.png" > "$OUT/verify-profile-gpu.txt" 2>&1
}
# 6. Issue 28 on a real GPU: one script per new rule, each failing as it fails on a GPU (a
#    second GPU's ordinal on a one-GPU machine, Adam's state on the CPU at a fused or foreach
#    step, torchmetrics' own error), and verify naming the rule that explains it.
step_new_kinds() {
    timeout 300 python3 tests/verify_cases/cases.py head_after_move.py \
        teacher_copied_before_move.py resume_optimizer_before_move.py second_gpu_ordinal.py \
        metric_not_moved.py encoding_taken_before_move.py legacy_type_cast.py \
        2>&1 | tee "$OUT/verify-new-kinds-gpu.md"
    # In full, from a folder of the user's own (under tests/ the ordering rules stay silent).
    user=$(mktemp -d)
    for f in resume_optimizer_before_move second_gpu_ordinal metric_not_moved; do
        cp "tests/verify_cases/scripts/$f.py" "$user/"
        (cd "$user" && timeout 60 python3 -m devlint verify "$f.py" -q) \
            > "$OUT/verify-$f-gpu.txt" 2>&1
    done
}

steps="${*:-bench bench_script pytest_gpu verify profile new_kinds}"
for step in $steps; do
    echo "== $step"
    "step_$step"
done
