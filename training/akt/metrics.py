"""AUC / accuracy / log-loss / Brier / ECE in numpy (no scikit-learn on this machine).

``auc`` equals sklearn.metrics.roc_auc_score (ties get average ranks, Mann-Whitney U);
``accuracy`` thresholds at 0.5 the way AKT's run.py does (p > 0.5 -> 1, else 0).
"""
from __future__ import annotations

import numpy as np


def auc(y: np.ndarray, p: np.ndarray) -> float:
    y = np.asarray(y, np.float64).ravel()
    p = np.asarray(p, np.float64).ravel()
    n_pos = float(y.sum())
    n_neg = float(len(y) - n_pos)
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    order = np.argsort(p, kind="mergesort")
    ps = p[order]
    ranks = np.empty(len(p), np.float64)
    # average rank for each run of tied scores (1-based ranks)
    starts = np.r_[0, np.flatnonzero(np.diff(ps)) + 1]
    ends = np.r_[starts[1:], len(ps)]
    avg = (starts + ends + 1) / 2.0
    ranks[order] = np.repeat(avg, ends - starts)
    return float((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def accuracy(y: np.ndarray, p: np.ndarray) -> float:
    return float(np.mean((np.asarray(p) > 0.5).astype(np.float64) == np.asarray(y)))


def logloss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(np.asarray(p, np.float64), 1e-10, 1 - 1e-10)
    y = np.asarray(y, np.float64)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def summary(y: np.ndarray, p: np.ndarray) -> dict:
    return {"auc": auc(y, p), "acc": accuracy(y, p), "logloss": logloss(y, p), "n": int(len(y))}


def calibration(y: np.ndarray, p: np.ndarray, bins: int = 10) -> dict:
    """Brier score and ECE over ``bins`` equal-width bins of p (weighted by the bins' counts)."""
    y = np.asarray(y, np.float64)
    p = np.asarray(p, np.float64)
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    ece = 0.0
    for b in range(bins):
        sel = idx == b
        if sel.any():
            ece += sel.mean() * abs(p[sel].mean() - y[sel].mean())
    return {"brier": float(np.mean((p - y) ** 2)), f"ece_{bins}bin": float(ece)}
