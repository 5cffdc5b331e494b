"""The encode, readout and append computations as exported to ONNX: the same functions as
``AKT.encode_with_ke`` / ``AKT.readout`` / ``AKT.append`` in akt_model.py (the reference, which
training, the tests and the parity fixture use), written so that onnxruntime runs fewer and
cheaper kernels.  Only the export
uses this file; nothing here is trained.

What differs from the reference, and why each is the same function up to float rounding:

* **The readout has no masks and no hist_len.**  The reference's readout takes right-padded
  histories and masks the padding; the exported one reads a history whose every cached row is
  real, so every key is allowed (the fill 0, the mask 1: adding / multiplying them is the
  identity; -0 + 0 is +0, the same under exp), and an empty history is cache tensors of length 0
  (not a padding row): its question layer then attends to the candidate alone, as the masked
  reference does, and its retriever averages over no keys, which is the 0 that the reference's
  fully masked row gives.  onnxruntime-node and -web give the same bits as the masked graph did
  (the empty history included).  The cost: no right-padded batches (a batch's histories must
  have one length).
* **Append has no masks at all.**  Its single new row may attend every key (the question and
  knowledge layers include the row itself, the retriever sees the L earlier rows), so the fill is 0
  and the mask is 1 everywhere: adding / multiplying them is the identity.
* **The attention mass after each key is a CumSum over a non-last axis.**  onnxruntime's CumSum
  is several times slower along the last axis than along an outer axis: in the reference readout
  of 110 candidates its two nodes were 15% of the kernel time, here 1.4%
  (profile_nodes.mjs, docs/measurements/akt-speed.md).  The readout transposes the first
  softmax's weights to [B, H, keys, C], runs the exclusive reverse CumSum over the keys axis (the
  same additions in the same order as the reference's CumSum, from the last key back), computes
  the decay in that layout and transposes the decay back: two Transposes replace the slow CumSum.
* **Reshapes to heads use constant shapes** (0 = keep, -1 = infer) instead of shapes computed from
  the input's sizes at run time (Shape, Gather, Unsqueeze, Concat before every Reshape): readout
  156 -> 132 nodes per run with the other changes here.  The same reshapes.
* **Append keeps its one row 2-D** ([1, d], heads as [1, H, 1, d_k]): each Linear is then one Gemm,
  without the two Reshapes onnxruntime puts around a 3-D MatMul + Add (114 -> 88 nodes per run
  with the mask removal).  On onnxruntime-node the append's outputs then differ from the graph
  exported from akt_model.py by float rounding (max 1.2e-6 on a cache value, profile_nodes.mjs
  --compare); on wasm they are the same bits.
* **The readout's distance factor is precomputed per key.**  exp(theta * sqrt(mass * |i - j|)) is computed as
  exp(sqrt(mass) * (theta * sqrt(|i - j|))), the second factor a [B, H, keys, 1] tensor made once
  per run, which saves one multiplication over [B, H, keys, C].  Float rounding only.
* **What depends on the candidates alone, or on the history's length alone, is an input**
  (format educlaw-akt-onnx/3).  The candidate's embedding, block 0's question-layer key and value
  per head, its score with itself and its half of the output layer's first product are the
  outputs of a graph of their own (FastCandidates, akt_candidates.onnx), which the caller runs
  once per candidate set and passes to every readout of that set: a run reads few sets (the
  course's skills after each answer, all skills at each day's end, the items it asks about), so
  the gathers, products and the reshapes into heads leave the readout.  The square roots of the
  distances (readout_roots) and append's distances (append_distances) are the caller's, once per
  length, so no Shape / Range / Cast node runs per call; the readout slices the candidate's own
  column with constant ends.  The same nodes on the same inputs: the same bits on both runtimes
  (profile_nodes.mjs --compare: max |diff| 0 on every output).

* **The cache is kept per head, one tensor per slice** (format educlaw-akt-onnx/2).  encode
  returns each projected slice the reference stacks into cache [B, 4N, L, d] / ke_cache
  [B, 2N, L, d] as a tensor of its own, split into heads: cache_i / ke_i [B, H, L, d_k].  The
  readout and append take them as they are, so no run copies the cache apart (a Split node), or
  transposes its keys and values into heads (four Transposes per readout); the caller appends a
  row per head (akt-backend.ts).  Only the layout changes: the same numbers, and the same bits
  from onnxruntime (the readout's products see the same operands in the same order).

* **The encoding's attention runs in row blocks** (row_blocks, ROW_BLOCKS = 64, 128; since
  2026-12-02).  Rows 0-63 attend keys 0-63, rows 64-127 keys 0-127, the rest every key: a row
  attends keys up to itself, so each block holds all of its rows' allowed keys, and the masked
  upper triangle is computed for the diagonal blocks only (at 184 rows, 68% of the square's
  entries and a third of its masked ones).  A masked key's weight is a denormal or 0 and adds
  nothing a float32 can hold to a row's sums, so a row's weights and output are the same.  The
  bits are the same on onnxruntime-node and -web (compare_encode.mjs: every output of every
  length 1..199, 8 histories) provided the blocks begin at multiples of 64 (the rows' allowed
  prefix then meets the kernels' vector accumulators as in the whole square) and no block is a
  product of one row (onnxruntime-node's one-row matrix product rounds differently: a block after
  the first also computes the row before it and drops it).  In PyTorch the blocked encoding
  differs from the reference by float rounding (export_onnx.py checks it within 1e-5).  Why: the
  masked entries are where onnxruntime-node's softmax makes denormals, which on Intel CPUs cost
  a microcode assist each (docs/measurements/akt-speed.md, "An Intel machine").

check_onnx.mjs compares the exported graphs with the PyTorch reference (fixture), and
export_onnx.py checks these modules against AKT.readout / AKT.append before exporting.
"""
from __future__ import annotations

import math
import warnings
from typing import List, NamedTuple, Optional, Tuple

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


def monotonic_probs_keys(scores: torch.Tensor, decay_t: torch.Tensor) -> torch.Tensor:
    """Monotonic attention weights for many query rows (the readout's candidates), every key
    allowed (see the module docstring).

    scores  [B, H, C, K] raw q.k / sqrt(d_k)
    decay_t [B, H, K, 1] theta * sqrt(|i - j|) per key (theta = -softplus(gamma) per head)
    Returns softmax(scores * clamp(exp(decay * sqrt(mass after key)), 1e-5))."""
    with torch.no_grad():
        p_t = torch.softmax(scores, dim=-1).transpose(-1, -2)  # [B, H, K, C]
        dist_t = torch.sqrt(_MassAfterKeysAxis.apply(p_t)) * decay_t
    total_effect = torch.clamp(torch.exp(dist_t), min=1e-5).transpose(-1, -2)  # [B, H, C, K]
    return torch.softmax(scores * total_effect, dim=-1)


def cache_heads(m: AKT, cache: torch.Tensor, ke: torch.Tensor) -> Tuple[torch.Tensor, ...]:
    """The reference's stacked cache [B, 4N, L, d] and ke_cache [B, 2N, L, d] as the exported graphs
    keep them: cache_0 .. cache_{4N-1}, ke_0 .. ke_{2N-1}, each [B, H, L, d_k]."""
    a = m.question_layers[0].attn
    return tuple(_split(a, t[:, i]) for t in (cache, ke) for i in range(t.size(1)))


def cache_names(m: AKT) -> Tuple[List[str], List[str]]:
    """Names of the per-head cache tensors: (cache_0 .. cache_{4N-1}, ke_0 .. ke_{2N-1})."""
    return [f"cache_{i}" for i in range(4 * m.n_blocks)], [f"ke_{i}" for i in range(2 * m.n_blocks)]


def monotonic_probs_square(scores: torch.Tensor, mask: "BlockMask", gammas: torch.Tensor) -> torch.Tensor:
    """akt_model.monotonic_probs for rows of a history against their keys (scores
    [B, H, rows, keys]), with the attention mass after each key a CumSum over the keys on an outer axis
    (the weights transposed to [B, H, keys, rows], as in the readout): the same additions in the
    same order, so the same floats, without onnxruntime's slow CumSum along the last axis (in the
    encoding of a 184-row history its three nodes were 23% of the kernel time)."""
    with torch.no_grad():
        p_t = torch.softmax(scores + mask.fill, dim=-1).transpose(-1, -2)  # [B, H, keys, rows]
        dist_t = torch.sqrt(_MassAfterKeysAxis.apply(p_t) * mask.pos_eff_t)
    total_effect = torch.clamp(torch.exp(dist_t * _theta(gammas)), min=1e-5).transpose(-1, -2)
    return torch.softmax(scores * total_effect + mask.fill, dim=-1) * mask.allowed_f


# The encoding's row blocks (_attend_rows_blocked): multiples of 64, where the two runtimes'
# softmax and matrix-product kernels give a block's rows the same bits as the whole square.
ROW_BLOCKS = (64, 128)


class BlockMask(NamedTuple):
    """One row block of a mask: rows [r0, hi) against keys [0, hi) (hi None: to the end), of which
    rows from lo on are kept; the mask as akt_model.monotonic_probs uses it (allowed as 0 / 1, the
    fill 0 / NEG_FILL, the distances transposed to [keys, rows]), made once and read by every layer."""
    r0: int
    lo: int
    hi: Optional[int]
    allowed_f: torch.Tensor
    fill: torch.Tensor
    pos_eff_t: torch.Tensor


def row_blocks(allowed: torch.Tensor, pos_eff: torch.Tensor, starts=ROW_BLOCKS) -> List[BlockMask]:
    """The mask [L, L] and distances in row blocks: rows [s_b, s_{b+1}) attend keys [0, s_{b+1})
    only (the last block every key), so the causal mask's upper triangle is computed for the
    diagonal blocks alone (starts=() is one block: the whole square).  A block after the first also
    computes the row before it, which its attention drops, so that a block of one row (a history of
    65 or 129 rows) is never a product of one row: onnxruntime-node computes those with another
    kernel, whose float rounding differs."""
    out = []
    bounds = [0, *starts, None]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        r0 = max(lo - 1, 0)
        al = allowed[r0:, :] if hi is None else allowed[r0:hi, :hi]
        pe = pos_eff[r0:, :] if hi is None else pos_eff[r0:hi, :hi]
        allowed_f = al.to(torch.float32)
        out.append(BlockMask(r0, lo, hi, allowed_f, (allowed_f - 1.0) * (-NEG_FILL), pe.transpose(-1, -2)))
    return out


def _attend_rows_blocked(a, query, keys, values, blocks: List[BlockMask]):
    """MonotonicMHA.forward with projected keys and values given ([B, L, d]) and
    monotonic_probs_square over the row blocks of its mask (row_blocks); returns out_proj of the
    attention output, [B, L, d].  Every allowed key of a row is in its block's keys (a row attends
    keys up to itself), and a masked key's weight is 0 (up to a denormal), so a row's weights and
    output are the same as over the whole square; see the module docstring for the bits."""
    q = _split(a, a.k_linear(query))
    k, v = _split(a, keys), _split(a, values)
    outs = []
    for b in blocks:
        kb, vb = (k, v) if b.hi is None else (k[:, :, :b.hi], v[:, :, :b.hi])
        qb = q[:, :, b.r0:] if b.hi is None else q[:, :, b.r0:b.hi]
        scores = torch.matmul(qb, kb.transpose(-2, -1)) / math.sqrt(a.d_k)
        outs.append(torch.matmul(monotonic_probs_square(scores, b, a.gammas), vb)[:, :, b.lo - b.r0:])
    return a.out_proj(_merge(a, torch.cat(outs, dim=2)))


class FastEncode(nn.Module):
    """AKT.encode_with_ke with every slice of the cache a tensor of its own, per head (see the
    module docstring): cache_0 .. cache_{4N-1}, ke_0 .. ke_{2N-1}, each [B, H, L, d_k]; the
    attention through monotonic_probs_square.  The last block's retriever is not computed: its
    output is only the next block's input (and the prediction, which encode does not give)."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, skills, questions, responses):
        m = self.m
        x, y, _ = m.embed(skills, questions, responses)
        incl, strict, pos_eff = m._masks(skills)
        incl_b = row_blocks(incl, pos_eff)
        ke, cache = [], []
        for layer in m.knowledge_encoder:
            a = layer.attn
            k, v = a.k_linear(y), a.v_linear(y)
            ke += [k, v]
            y = layer.post(y, _attend_rows_blocked(a, y, k, v, incl_b))
        n = len(m.question_layers)
        for i, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
            a = qa.attn
            k, v = a.k_linear(x), a.v_linear(x)
            cache += [k, v]
            x = qa.post(x, _attend_rows_blocked(a, x, k, v, incl_b))
            r = ret.attn
            kr, vr = r.k_linear(x), r.v_linear(y)
            cache += [kr, vr]
            if i < n - 1:
                x = ret.post(x, _attend_rows_blocked(r, x, kr, vr, row_blocks(strict, pos_eff)))
        a = m.question_layers[0].attn
        return tuple(_split(a, t) for t in cache + ke)


def readout_roots(L: int) -> Tuple[torch.Tensor, torch.Tensor]:
    """The readout's distance terms for a history of L rows, which depend on L alone:
    root_self [1, 1, L + 1, 1] = sqrt(|L - j|) for keys j = 0..L-1 and 0 for the candidate itself
    (the question layer's keys), root_hist [1, 1, L, 1] the first L of them (the retriever's).  The
    caller computes them once per length (akt-backend.ts: an integer's square root, correctly
    rounded to float32 in both, so the same bits as a Sqrt node)."""
    pos = torch.arange(L, dtype=torch.float32)
    pe_hist = (L - pos).view(1, 1, L, 1)
    return torch.sqrt(torch.cat([pe_hist, torch.zeros(1, 1, 1, 1)], dim=2)), torch.sqrt(pe_hist)


def append_distances(L: int) -> torch.Tensor:
    """Append's distances for a history of L rows: |L - j| for keys j = 0..L (the new row last), [1, 1, 1, L + 1]."""
    return (L - torch.arange(L + 1, dtype=torch.float32)).view(1, 1, 1, L + 1)


CANDIDATE_TERMS = ["cand_x", "cand_k", "cand_v", "cand_self", "cand_out"]


class FastCandidates(nn.Module):
    """What a readout computes from its candidates alone (format educlaw-akt-onnx/3): the
    candidate's embedding cand_x [B, C, d]; block 0's question-layer key (its query too: kq_same)
    and value per head, cand_k / cand_v [B, H, C, d_k], and its attention score with itself,
    cand_self [B, H, C, 1]; and its half of the output layer's first product with that layer's bias,
    cand_out [B, C, d_out].  The readout takes them as inputs, so a caller that reads the same
    candidates again (the course's skills after every answer, all skills at each day's end) runs
    this graph once and none of its gathers per readout.  The same nodes as FastReadout had, so the
    same bits."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, cand_skills, cand_questions):
        m = self.m
        xc, u = m.question_embedding(cand_skills, cand_questions)  # [B, C, d], [B, C, 1]
        a = m.question_layers[0].attn
        qc = _split(a, m._linear_of_candidates(a.k_linear, cand_skills, u))  # [B, H, C, dk]
        vc = _split(a, m._linear_of_candidates(a.v_linear, cand_skills, u))
        s_self = torch.sum(qc * qc, dim=-1, keepdim=True) / math.sqrt(a.d_k)
        first = m.out[0]
        d = m.d_model
        out = m._linear_of_candidates(first, cand_skills, u, first.weight[:, d:], first.bias)
        return xc, qc, vc, s_self, out


class FastReadout(nn.Module):
    """sigmoid(AKT.readout(cache, hist_len, cand_skills, cand_questions)) over the per-head cache
    (cache_heads) of a history whose every row is real, see the module docstring:
    forward(cache_0, .., cache_{4N-1}, root_self, root_hist, cand_x, cand_k, cand_v, cand_self,
    cand_out), the roots from readout_roots(L) and the candidates' terms from FastCandidates.  No
    masks and no hist_len: an empty history is cache tensors of length 0 (its retriever then
    averages over no keys, which is 0, the reference's zeroed output; its question layer sees the
    candidate alone).  Nothing here reads the history's length: the candidate's own column is the
    scores' last (slices with constant ends)."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, *inputs):
        m = self.m
        n4 = 4 * m.n_blocks
        heads, (root_self, root_hist, xc, qc0, vc0, s_self0, cand_out) = inputs[:n4], inputs[n4:]
        for k, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
            a = qa.attn
            KA, VA = heads[4 * k], heads[4 * k + 1]
            if k == 0:  # block 0's question layer reads the embedding itself: the candidates' terms
                qc, vc, s_self = qc0, vc0, s_self0
            else:
                qc, vc = _split(a, a.k_linear(xc)), _split(a, a.v_linear(xc))
                s_self = torch.sum(qc * qc, dim=-1, keepdim=True) / math.sqrt(a.d_k)
            s_hist = torch.matmul(qc, KA.transpose(-2, -1)) / math.sqrt(a.d_k)
            scores = torch.cat([s_hist, s_self], dim=-1)
            p = monotonic_probs_keys(scores, root_self * _theta(a.gammas).transpose(-1, -2))
            o = torch.matmul(p[..., :-1], VA) + p[..., -1:] * vc
            xc = qa.post(xc, a.out_proj(_merge(a, o)))
            r = ret.attn
            KR, VR = heads[4 * k + 2], heads[4 * k + 3]
            qr = _split(r, r.k_linear(xc))
            scores = torch.matmul(qr, KR.transpose(-2, -1)) / math.sqrt(r.d_k)
            p = monotonic_probs_keys(scores, root_hist * _theta(r.gammas).transpose(-1, -2))
            xc = ret.post(xc, r.out_proj(_merge(r, torch.matmul(p, VR))))
        first = m.out[0]
        d = m.d_model
        pre = F.linear(xc, first.weight[:, :d]) + cand_out
        return torch.sigmoid(m.out[1:](pre).squeeze(-1) * m.logit_scale + m.logit_bias)


def _attend_row_unmasked(a, k_new, v_new, keys, values, pe, with_self: bool):
    """AKT._attend_row for one row that may attend every key (fill 0, mask 1: both dropped).
    k_new / v_new [1, d]: the row's projected key (its query too: kq_same) and value; keys /
    values [1, H, L, dk], the cached rows per head; with_self: the row attends to itself as well
    (question and knowledge layers) or only to the cached rows (retriever).  Returns out_proj of
    the attention output, [1, d].  The row stays 2-D ([1, d], heads as [1, H, 1, dk], which is the
    same memory), so each Linear is one Gemm without the Reshapes onnxruntime puts around a 3-D
    MatMul + Add."""
    qh = _Reshape.apply(k_new, (1, a.h, 1, a.d_k))  # [1, H, 1, dk]
    if with_self:
        keys = torch.cat([keys, qh], dim=2)  # [1, H, L + 1, dk]
        values = torch.cat([values, _Reshape.apply(v_new, (1, a.h, 1, a.d_k))], dim=2)
    scores = torch.matmul(qh, keys.transpose(-2, -1)) / math.sqrt(a.d_k)  # [1, H, 1, K]
    with torch.no_grad():
        p = torch.softmax(scores, dim=-1)
        dist = torch.sqrt(_MassAfter.apply(p) * pe)  # the reference's CumSum over the last axis (one row)
    total_effect = torch.clamp(torch.exp(dist * _theta(a.gammas)), min=1e-5)
    p = torch.softmax(scores * total_effect, dim=-1)
    o = _Reshape.apply(torch.matmul(p, values), (1, a.d_model))  # heads side by side, as MonotonicMHA.merge
    return a.out_proj(o)


class FastAppend(nn.Module):
    """AKT.append for the batch of one that the append graph takes, over the per-head cache
    (cache_heads): forward(cache_0, .., cache_{4N-3}, ke_0, .., ke_{2N-1}, distances, skill,
    question, response) -> (cache_row [1, 4N, 1, d], ke_row [1, 2N, 1, d]), the distances from
    append_distances(L) (the caller's, once per length: no Range and Shape nodes); without masks (every key
    allowed), the new row as [1, d] (see _attend_row_unmasked).  A row's [1, d] is also its
    [1, H, 1, dk] per head, so the rows need no re-layout.  The last block's retriever keys and
    values (cache_{4N-2}, cache_{4N-1}) are not inputs: that retriever's output is only the next
    block's input, so nothing in the new row reads them."""

    def __init__(self, m: AKT):
        super().__init__()
        self.m = m

    def forward(self, *inputs):
        m = self.m
        d = m.d_model
        nc, n2 = 4 * m.n_blocks - 2, 2 * m.n_blocks
        cache, ke_cache, (pe_incl, skill, question, response) = inputs[:nc], inputs[nc:nc + n2], inputs[nc + n2:]
        x, y, _ = m.embed(skill, question, response)  # [1, 1, d]
        x, y = _Reshape.apply(x, (1, d)), _Reshape.apply(y, (1, d))
        pe_strict = pe_incl[..., :-1]  # pe_incl: append_distances(L), |L - j| for keys j = 0..L

        def self_attend(layer, h, keys_cache, vals_cache):
            """keys_cache / vals_cache [1, H, L, dk]; the row's query is its own key (kq_same)."""
            a = layer.attn
            k_new, v_new = a.k_linear(h), a.v_linear(h)
            return [k_new, v_new], layer.post(h, _attend_row_unmasked(a, k_new, v_new, keys_cache, vals_cache, pe_incl, True))

        ke_rows = []
        for i, layer in enumerate(m.knowledge_encoder):
            kv, y = self_attend(layer, y, ke_cache[2 * i], ke_cache[2 * i + 1])
            ke_rows += kv
        rows = []
        n = len(m.question_layers)
        for k, (qa, ret) in enumerate(zip(m.question_layers, m.retriever_layers)):
            kv, x = self_attend(qa, x, cache[4 * k], cache[4 * k + 1])
            rows += kv
            rows += [ret.attn.k_linear(x), ret.attn.v_linear(y)]
            if k < n - 1:  # the retriever's output is only the next block's input
                r = ret.attn
                x = ret.post(x, _attend_row_unmasked(r, r.k_linear(x), None, cache[4 * k + 2], cache[4 * k + 3], pe_strict, False))
        return (_Reshape.apply(torch.stack(rows, dim=0), (1, len(rows), 1, d)),
                _Reshape.apply(torch.stack(ke_rows, dim=0), (1, len(ke_rows), 1, d)))
