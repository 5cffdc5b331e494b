"""Summarise AKT and PFA runs into a markdown table (the numbers in docs/kt/model-card.md).

  /usr/bin/python3 training/akt/summarize.py --akt training/akt/runs/a09_d64_f*/metrics.json \
      --pfa training/akt/runs/pfa_f*.json [--json out.json]
"""
from __future__ import annotations

import argparse
import json

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--akt", nargs="*", default=[])
    ap.add_argument("--akt-eval", nargs="*", default=[], help="evaluate.py --json outputs, for folds without metrics.json")
    ap.add_argument("--pfa", nargs="*", default=[])
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rows = {}
    for p in args.akt:
        m = json.load(open(p))
        rows.setdefault(m["fold"], {})["akt"] = m
    for p in args.akt_eval:
        # evaluate.py output for a checkpoint whose training was interrupted before train.py wrote
        # metrics.json: same test protocol, epoch from the checkpoint, no training totals.
        e = json.load(open(p))
        rows.setdefault(e["fold"], {})["akt"] = {
            "fold": e["fold"], "test": {"auc": e["test"]["auc"], "acc": e["test"]["acc"],
                                        "auc_first_kc_row_only": e["test"]["first_kc_row_only"]["auc"]},
            "valid": {"auc": e["valid"]["auc"]}, "best_epoch": e["epoch"], "epochs_run": "?",
            "stopped_by": "interrupted", "train_seconds_total": None}
    for p in args.pfa:
        m = json.load(open(p))
        rows.setdefault(m["fold"], {})["pfa"] = m
    print("| fold | AKT test AUC | AKT test ACC | AKT valid AUC | best epoch / run | train min | AKT AUC first-KC-row only | PFA test AUC | PFA test ACC |")
    print("|---|---|---|---|---|---|---|---|---|")
    agg = {"akt_auc": [], "akt_acc": [], "pfa_auc": [], "pfa_acc": [], "akt_auc_first": []}
    for fold in sorted(rows):
        a, p = rows[fold].get("akt"), rows[fold].get("pfa")
        cells = [str(fold)]
        if a:
            cells += [f"{a['test']['auc']:.4f}", f"{a['test']['acc']:.4f}", f"{a['valid']['auc']:.4f}",
                      f"{a['best_epoch']} / {a['epochs_run']} ({a['stopped_by']})",
                      f"{a['train_seconds_total'] / 60:.0f}" if a["train_seconds_total"] is not None else "-",
                      f"{a['test']['auc_first_kc_row_only']:.4f}"]
            agg["akt_auc"].append(a["test"]["auc"])
            agg["akt_acc"].append(a["test"]["acc"])
            agg["akt_auc_first"].append(a["test"]["auc_first_kc_row_only"])
        else:
            cells += ["-"] * 6
        if p:
            cells += [f"{p['test']['auc']:.4f}", f"{p['test']['acc']:.4f}"]
            agg["pfa_auc"].append(p["test"]["auc"])
            agg["pfa_acc"].append(p["test"]["acc"])
        else:
            cells += ["-"] * 2
        print("| " + " | ".join(cells) + " |")

    def ms(v):
        return f"{np.mean(v):.4f} ± {np.std(v, ddof=1) if len(v) > 1 else 0:.4f} (n={len(v)})" if v else "-"
    print(f"| mean ± sd | {ms(agg['akt_auc'])} | {ms(agg['akt_acc'])} | | | | {ms(agg['akt_auc_first'])} | {ms(agg['pfa_auc'])} | {ms(agg['pfa_acc'])} |")
    if args.json:
        json.dump({k: {"values": v, "mean": float(np.mean(v)) if v else None,
                       "sd": float(np.std(v, ddof=1)) if len(v) > 1 else None} for k, v in agg.items()},
                  open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
