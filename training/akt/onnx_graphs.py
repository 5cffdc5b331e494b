"""The readout and append computations as exported to ONNX: the same functions as
``AKT.readout`` / ``AKT.append`` in akt_model.py (the reference, which training, the tests and the
parity fixture use), written so that onnxruntime runs fewer and cheaper kernels.  Only the export
uses this file; nothing here is trained.

What differs from the reference, and why each is the same function up to float rounding:

* **Masks are per key, not per (candidate, key).**  The readout's additive mask and distances are
  [B, 1, 1, keys] tensors that broadcast over heads and candidates; the reference builds them at
  [B, 1, C, keys] with Expand + Concat.  The values are the same.
* **No multiplication by the mask after the last softmax.**  A masked key gets the additive fill
  -1e9, so its exp underflows to exactly 0 whenever the row has an allowed key; multiplying by the
  mask then changes nothing.  Rows with no allowed key are: none in the readout's question layer (the
  candidate itself is always allowed) and none in append (every key is allowed); in the readout's
  retriever the only such row is an empty history (hist_len = 0), where the reference's attention is
  all zeros, so its output p @ V is 0: here the [B, H, C, d_k] output is multiplied by (hist_len > 0)
  instead of the [B, H, C, keys] weights.  Same numbers, exactly.
* **Append has no masks at all.**  Its single new row may attend every key (the question and
  knowledge layers include the row itself, the retriever sees the L earlier rows), so the fill is 0
  and the mask is 1 everywhere: adding / multiplying them is the identity.
* **The attention mass after each key is a CumSum over a non-last axis.**  onnxruntime's CumSum
  is several times slower along the last axis than along an outer axis: in the reference readout
  of 110 candidates its two nodes were 15% of the kernel time, here 1.4%
  (profile_nodes.mjs, docs/kt/model-card.md).  The readout transposes the first
  softmax's weights to [B, H, keys, C], runs the exclusive reverse CumSum over the keys axis (the
  same additions in the same order as the reference's CumSum, from the last key back), computes
  the decay in that layout and transposes the decay back: two Transposes replace the slow CumSum.
* **Reshapes to heads use constant shapes** (0 = keep, -1 = infer) instead of shapes computed from
  the input's sizes at run time (Shape, Gather, Unsqueeze, Concat before every Reshape): readout
  156 -> 132 nodes per run with the other changes here.  The same reshapes.
* **Append keeps its one row 2-D** ([1, d], heads as [H, 1, d_k]): each Linear is then one Gemm,
  without the two Reshapes onnxruntime puts around a 3-D MatMul + Add (114 -> 88 nodes per run
  with the mask removal).  On onnxruntime-node the append's outputs then differ from the graph
  exported from akt_model.py by float rounding (max 1.2e-6 on a cache value, profile_nodes.mjs
  --compare); on wasm they are the same bits.
* **The readout's distance factor is precomputed per key.**  exp(theta * sqrt(mass * |i - j|)) is computed as
  exp(sqrt(mass) * (theta * sqrt(|i - j|))), the second factor a [B, H, keys, 1] tensor made once
  per run, which saves one multiplication over [B, H, keys, C].  Float rounding only.

check_onnx.mjs compares the exported graphs with the PyTorch reference (fixture), and
export_onnx.py checks these modules against AKT.readout / AKT.append before exporting.
"""
from __future__ import annotations

import math
import warnings

import torch
import torch.nn.functional as F
from torch import nn

from akt_model import AKT, NEG_FILL, _MassAfter


class _MassAfterKeysAxis(torch.autograd.Function):
    """sum_{k > j} p_k along axis -2 (keys on axis -2, candidates last): an exclusive reverse
    cumulative sum, one ONNX CumSum node (exclusive=1, reverse=1, axis=-2)."""

    @staticmethod
    def forward(ctx, p):  # noqa: D401
        rev = torch.flip(torch.cumsum(torch.flip(p, [-2]), dim=-2), [-2])  # sum_{k >= j} p_k
        return torch.cat([rev[..., 1:, :], torch.zeros_like(rev[..., :1, :])], dim=-2)

    @staticmethod
    def symbolic(g, p):
        with warnings.catch_warnings():  # torch 1.13 calls g.op on an autograd.Function's graph deprecated
            warnings.simplefilter("ignore", FutureWarning)
            axis = g.op("Constant", value_t=torch.tensor([-2], dtype=torch.int64)[0])
            return g.op("CumSum", p, axis, exclusive_i=1, reverse_i=1)


class _Reshape(torch.autograd.Function):
    """x.reshape(shape) where 0 keeps the input's size on that axis and -1 is inferred (ONNX Reshape's rules), exported
    as one Reshape node with a constant shape.  PyTorch's export computes a target shape from the
    input's dynamic sizes (Shape, Gather, Unsqueeze, Concat per reshape), kernels that onnxruntime
    runs on every call and that cost as much as a small matrix product in a 5-candidate readout."""

    @staticmethod
    def forward(ctx, x, shape):  # noqa: D401
        return x.reshape([x.size(i) if n == 0 else n for i, n in enumerate(shape)])

    @staticmethod
    def symbolic(g, x, shape):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return g.op("Reshape", x, g.op("Constant", value_t=torch.tensor(list(shape), dtype=torch.int64)))


def _split(a, t: torch.Tensor) -> torch.Tensor:  # [B, L, d] -> [B, H, L, d_k], as MonotonicMHA.split
    return _Reshape.apply(t, (0, -1, a.h, a.d_k)).transpose(1, 2)


def _merge(a, t: torch.Tensor) -> torch.Tensor:  # [B, H, L, d_k] -> [B, L, d], as MonotonicMHA.merge
    return _Reshape.apply(t.transpose(1, 2), (0, -1, a.d_model))


def _theta(gammas: torch.Tensor) -> torch.Tensor:
    return -F.softplus(gammas).unsqueeze(0)  # [1, H, 1, 1]


def monotonic_probs_keys(scores: torch.Tensor, fill: torch.Tensor, decay_t: torch.Tensor) -> torch.Tensor:
    """Monotonic attention weights for many query rows (the readout's candidates).

    scores  [B, H, C, K] raw q.k / sqrt(d_k)
    fill    [B, 1, 1, K] 0 where the key is allowed, NEG_FILL where masked
    decay_t [B, H, K, 1] theta * sqrt(|i - j|) per key (theta = -softplus(gamma) per head)
    Returns softmax(scores * clamp(exp(decay * sqrt(mass after key)), 1e-5) + fill) without the
    final mask multiplication (see the module docstring for when that is exact)."""
    with torch.no_grad():
        p_t = torch.softmax(scores + fill, dim=-1).transpose(-1, -2)  # [B, H, K, C]
        dist_t = torch.sqrt(_MassAfterKeysAxis.apply(p_t)) * decay_t
    total_effect = torch.clamp(torch.exp(dist_t), min=1e-5).transpose(-1, -2)  # [B, H, C, K]
    return torch.softmax(scores * total_effect + fill, dim=-1)


class FastReadout(nn.Module):
    """sigmoid(AKT.readout(cache, hist_len, cand_skills, cand_questions)), see the module docstring."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, cache, hist_len, cand_skills, cand_questions):
        m = self.m
        xc, u = m.question_embedding(cand_skills, cand_questions)  # [B, C, d], [B, C, 1]
        L = cache.size(2)
        n = hist_len.to(torch.float32).view(-1, 1, 1, 1)  # [B, 1, 1, 1]
        pos = torch.arange(L, dtype=torch.float32, device=cache.device).view(1, 1, 1, L)
        valid = (pos < n).to(torch.float32)  # [B, 1, 1, L]
        fill_hist = (valid - 1.0) * (-NEG_FILL)  # 0 / NEG_FILL, as in akt_model.monotonic_probs
        pe_hist = torch.abs(n - pos)  # [B, 1, 1, L]
        zero = torch.zeros_like(n)
        fill_self = torch.cat([fill_hist, zero], dim=-1)  # the candidate itself: allowed, distance 0
        pe_self = torch.cat([pe_hist, zero], dim=-1)  # [B, 1, 1, L + 1]
        has_hist = (n > 0).to(torch.float32)  # [B, 1, 1, 1]
        root_self = torch.sqrt(pe_self).transpose(-1, -2)  # [B, 1, L + 1, 1]
        root_hist = torch.sqrt(pe_hist).transpose(-1, -2)  # [B, 1, L, 1]
        for k, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
            a = qa.attn
            KA, VA = _split(a, cache[:, 4 * k]), _split(a, cache[:, 4 * k + 1])
            if k == 0:  # block 0's question layer reads the embedding itself (per-skill tables)
                qc = _split(a, m._linear_of_candidates(a.k_linear, cand_skills, u))  # [B, H, C, dk]
                vc = _split(a, m._linear_of_candidates(a.v_linear, cand_skills, u))
            else:
                qc, vc = _split(a, a.k_linear(xc)), _split(a, a.v_linear(xc))
            s_hist = torch.matmul(qc, KA.transpose(-2, -1)) / math.sqrt(a.d_k)
            s_self = torch.sum(qc * qc, dim=-1, keepdim=True) / math.sqrt(a.d_k)
            scores = torch.cat([s_hist, s_self], dim=-1)
            p = monotonic_probs_keys(scores, fill_self, root_self * _theta(a.gammas).transpose(-1, -2))
            o = torch.matmul(p[..., :L], VA) + p[..., L:] * vc
            xc = qa.post(xc, a.out_proj(_merge(a, o)))
            r = ret.attn
            KR, VR = _split(r, cache[:, 4 * k + 2]), _split(r, cache[:, 4 * k + 3])
            qr = _split(r, r.k_linear(xc))
            scores = torch.matmul(qr, KR.transpose(-2, -1)) / math.sqrt(r.d_k)
            p = monotonic_probs_keys(scores, fill_hist, root_hist * _theta(r.gammas).transpose(-1, -2))
            xc = ret.post(xc, r.out_proj(_merge(r, torch.matmul(p, VR) * has_hist)))
        first = m.out[0]
        d = m.d_model
        pre = F.linear(xc, first.weight[:, :d]) + m._linear_of_candidates(first, cand_skills, u, first.weight[:, d:], first.bias)
        return torch.sigmoid(m.out[1:](pre).squeeze(-1) * m.logit_scale + m.logit_bias)


def _attend_row_unmasked(a, q, keys, values, pe):
    """AKT._attend_row for one row that may attend every key (fill 0, mask 1: both dropped), in 2-D:
    q [1, d] the row's projected query, keys / values [K, d] projected; returns out_proj of the
    attention output, [1, d].  Keeping the row 2-D makes every Linear one Gemm without the
    Reshapes that onnxruntime puts around a 3-D MatMul + Add."""
    K = keys.size(0)
    qh = _Reshape.apply(q, (a.h, 1, a.d_k))  # [H, 1, dk]
    kh = _Reshape.apply(keys, (-1, a.h, a.d_k)).permute(1, 2, 0)  # [H, dk, K]
    scores = torch.matmul(qh, kh) / math.sqrt(a.d_k)  # [H, 1, K]
    with torch.no_grad():
        p = torch.softmax(scores, dim=-1)
        dist = torch.sqrt(_MassAfter.apply(p) * pe)  # the reference's CumSum over the last axis (one row)
    total_effect = torch.clamp(torch.exp(dist * _theta(a.gammas)[0]), min=1e-5)
    p = torch.softmax(scores * total_effect, dim=-1)
    vh = _Reshape.apply(values, (-1, a.h, a.d_k)).transpose(0, 1)  # [H, K, dk]
    o = _Reshape.apply(torch.matmul(p, vh), (1, a.d_model))  # heads side by side, as MonotonicMHA.merge
    return a.out_proj(o)


class FastAppend(nn.Module):
    """AKT.append(cache, ke_cache, skill, question, response) for the batch of one that the append
    graph takes, without masks (every key allowed), the new row as [1, d] (see _attend_row_unmasked)."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, cache, ke_cache, skill, question, response):
        m = self.m
        d = m.d_model
        x, y, _ = m.embed(skill, question, response)  # [1, 1, d]
        x, y = _Reshape.apply(x, (1, d)), _Reshape.apply(y, (1, d))
        L = cache.size(2)
        pos = torch.arange(L + 1, dtype=torch.float32, device=cache.device)
        pe_incl = (L - pos).view(1, 1, L + 1)  # |L - j| for keys j = 0..L
        pe_strict = pe_incl[..., :L]

        def self_attend(layer, h, keys_cache, vals_cache):
            """keys_cache / vals_cache [L, d]; the row's query is its own key (kq_same)."""
            a = layer.attn
            k_new, v_new = a.k_linear(h), a.v_linear(h)
            keys = torch.cat([keys_cache, k_new], dim=0)
            vals = torch.cat([vals_cache, v_new], dim=0)
            return [k_new, v_new], layer.post(h, _attend_row_unmasked(a, k_new, keys, vals, pe_incl))

        ke_rows = []
        for i, layer in enumerate(m.knowledge_encoder):
            kv, y = self_attend(layer, y, ke_cache[0, 2 * i], ke_cache[0, 2 * i + 1])
            ke_rows += kv
        rows = []
        n = len(m.question_layers)
        for k, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
            kv, x = self_attend(qa, x, cache[0, 4 * k], cache[0, 4 * k + 1])
            rows += kv
            rows += [ret.attn.k_linear(x), ret.attn.v_linear(y)]
            if k < n - 1:  # the retriever's output is only the next block's input
                r = ret.attn
                x = ret.post(x, _attend_row_unmasked(r, r.k_linear(x), cache[0, 4 * k + 2], cache[0, 4 * k + 3], pe_strict))
        return (_Reshape.apply(torch.stack(rows, dim=0), (1, len(rows), 1, d)),
                _Reshape.apply(torch.stack(ke_rows, dim=0), (1, len(ke_rows), 1, d)))
