#!/usr/bin/env bash
# The commands behind the shipped model and every number in docs/kt/model-card.md.
# Run from the repository root:  bash training/akt/run_assist2009.sh [folds...]   (default: 1 2 3 4 5)
# Long: each fold trains in the foreground here; start it with nohup to keep it in the background:
#   nohup bash training/akt/run_assist2009.sh 1 > training/akt/runs/run_f1.log 2>&1 &
set -euo pipefail
PY=/usr/bin/python3
DATA=${DATA:-/work/shared/data/assist2009_pid}
RUNS=training/akt/runs
FOLDS=${*:-1 2 3 4 5}
AKT_ARGS=(--d-model 128 --heads 4 --d-ff 512 --dropout 0.2 --lr 1e-3 --plateau-halve 2 --patience 6 --epochs 60 --max-minutes ${MAX_MINUTES:-60} --threads ${THREADS:-2})
mkdir -p "$RUNS"

for f in $FOLDS; do
  $PY training/akt/baseline_pfa.py --data "$DATA" --fold "$f" --out "$RUNS/pfa_f$f.json"
  $PY training/akt/train.py --data "$DATA" --fold "$f" --out "$RUNS/a09_d128_f$f" "${AKT_ARGS[@]}"
done

if [[ " $FOLDS " == *" 1 "* ]]; then
  mkdir -p training/akt/checkpoints
  $PY training/akt/calibrate.py --checkpoint "$RUNS/a09_d128_f1/checkpoint.pt" --data "$DATA" --fold 1 \
      --out training/akt/checkpoints/assist2009_pid_fold1.pt
  $PY training/akt/evaluate.py --checkpoint "$RUNS/a09_d128_f1/checkpoint.pt" --data "$DATA" --fold 1 --json "$RUNS/eval_uncalibrated_f1.json"
  $PY training/akt/evaluate.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt --data "$DATA" --fold 1 --json "$RUNS/eval_shipped_f1.json"
  $PY training/akt/export_onnx.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt \
      --out public/models/akt --data "$DATA" --metrics "$RUNS"/a09_d128_f*/metrics.json
  $PY training/akt/make_fixture.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt --models public/models/akt
  $PY training/akt/test_akt.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt
  $PY training/akt/eval_window.py --checkpoint training/akt/checkpoints/assist2009_pid_fold1.pt --data "$DATA" --fold 1 --json "$RUNS/eval_window_f1.json"
  node training/akt/check_onnx.mjs --bench 50 --json "$RUNS/check_onnx.json"
fi
$PY training/akt/summarize.py --akt "$RUNS"/a09_d128_f*/metrics.json --pfa "$RUNS"/pfa_f*.json --json "$RUNS/summary.json"
