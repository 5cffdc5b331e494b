"""AKT-Rasch (Ghosh, Heffernan & Lan, KDD 2020), written from the specification in
/work/shared/reference/PRIOR-WORK.md section 1.2, with three entry points:

* ``forward``  -- all positions: logit of P(correct on row t | rows < t)         [B, L]
* ``encode``   -- history rows only: the per-layer tensors that a new last row needs
* ``readout``  -- C candidate next items per history, computing only the last row

Conventions
-----------
* skill ids 1..n_skills, question ids 1..n_questions, 0 = padding.
* question id 0 has a difficulty u_0 that is fixed at 0 (``padding_idx=0``), so a candidate
  with question id 0 is "an item of average difficulty for its skill".
* responses are 0/1 and index a 2-row embedding directly (no arithmetic on ids anywhere).
* masks come from ``torch.arange`` comparisons in float32, so an exported ONNX graph follows
  the dynamic length; the mask fill is a finite -1e9 and attention rows are multiplied by the
  mask after the softmax, so a fully masked row (the first row of the retriever) is exactly 0,
  which is what AKT's ``zero_pad`` does, and no NaN can appear.
"""
from __future__ import annotations

import math
import warnings
from typing import Tuple

import torch
import torch.nn.functional as F
from torch import nn

NEG_FILL = -1e9


class _MassAfter(torch.autograd.Function):
    """sum_{k > j} p_k along the last axis (an exclusive reverse cumulative sum).

    In PyTorch it is flip / cumsum / flip / shift; in ONNX it is one CumSum node with
    exclusive=1 and reverse=1, which adds the same numbers in the same order (from the last key
    back), so both give the same floats. The ONNX form saves the two flips (strided Slice nodes),
    the shift and the concatenation, which are a good part of a readout's time in onnxruntime-web.
    Only used under no_grad (the attention distances carry no gradient in AKT)."""

    @staticmethod
    def forward(ctx, p):  # noqa: D401
        rev = torch.flip(torch.cumsum(torch.flip(p, [-1]), dim=-1), [-1])  # sum_{k >= j} p_k
        return torch.cat([rev[..., 1:], torch.zeros_like(rev[..., :1])], dim=-1)

    @staticmethod
    def symbolic(g, p):
        with warnings.catch_warnings():  # torch 1.13 calls g.op on an autograd.Function's graph deprecated
            warnings.simplefilter("ignore", FutureWarning)
            axis = g.op("Constant", value_t=torch.tensor([-1], dtype=torch.int64)[0])
            return g.op("CumSum", p, axis, exclusive_i=1, reverse_i=1)


def monotonic_probs(scores: torch.Tensor, allowed: torch.Tensor, pos_eff: torch.Tensor,
                    gammas: torch.Tensor) -> torch.Tensor:
    """AKT's monotonic attention weights.

    scores  [B, H, Lq, Lk]  raw q.k / sqrt(d_k)
    allowed bool, broadcastable to scores; True where the key may be attended
    pos_eff float, broadcastable to scores; |position(query) - position(key)|
    gammas  [H, 1, 1]       decay parameters (theta = -softplus(gamma))

    Masking adds 0 or NEG_FILL (one broadcast Add instead of a Where on the full scores tensor).
    A row with at least one allowed key gives exactly 0 to every masked key (exp underflows) and
    the same weights to allowed keys as a masked_fill would; a fully masked row (the first row
    of the retriever) is zeroed by the final multiplication by the mask, which is what AKT's
    ``zero_pad`` does, so no NaN can appear.
    """
    allowed_f = allowed.to(scores.dtype)
    fill = (allowed_f - 1.0) * (-NEG_FILL)  # 0 where allowed, NEG_FILL where masked
    with torch.no_grad():
        p = torch.softmax(scores + fill, dim=-1)
        # AKT writes the attention mass after key j as sum(p) - cumsum(p)_j.  Mathematically
        # that is the exclusive reverse cumsum computed here; numerically, the subtraction leaves
        # a rounding residue (~1e-7 in fp32) where the true value is 0 (the last visible key),
        # which the sqrt below amplifies to ~3e-4 and which changes with padding / summation
        # order.  The reverse cumsum is exactly 0 there and does not depend on padding.  Masked
        # keys have p = 0 (or, in a fully masked row, whatever: that row is zeroed at the end),
        # and mass and distance are non-negative, so no clamp is needed before the sqrt.
        dist = torch.sqrt(_MassAfter.apply(p) * pos_eff)
    theta = -F.softplus(gammas).unsqueeze(0)  # [1, H, 1, 1]
    # exp of a non-positive number is at most 1, so AKT's upper clamp (1e5) never acts.
    total_effect = torch.clamp(torch.exp(dist.detach() * theta), min=1e-5)
    return torch.softmax(scores * total_effect + fill, dim=-1) * allowed_f


class MonotonicMHA(nn.Module):
    """Multi-head attention with kq_same=1 (queries and keys share k_linear)."""

    def __init__(self, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model, self.h, self.d_k = d_model, n_heads, d_model // n_heads
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.gammas = nn.Parameter(torch.zeros(n_heads, 1, 1))
        nn.init.xavier_uniform_(self.gammas)
        nn.init.xavier_uniform_(self.k_linear.weight)
        nn.init.xavier_uniform_(self.v_linear.weight)
        nn.init.zeros_(self.k_linear.bias)
        nn.init.zeros_(self.v_linear.bias)
        nn.init.zeros_(self.out_proj.bias)

    def split(self, t: torch.Tensor) -> torch.Tensor:  # [B, L, d] -> [B, H, L, d_k]
        return t.reshape(t.size(0), t.size(1), self.h, self.d_k).transpose(1, 2)

    def merge(self, t: torch.Tensor) -> torch.Tensor:  # [B, H, L, d_k] -> [B, L, d]
        return t.transpose(1, 2).reshape(t.size(0), t.size(2), self.d_model)

    def forward(self, query, key, values, allowed, pos_eff):
        q = self.split(self.k_linear(query))
        k = self.split(self.k_linear(key))
        v = self.split(self.v_linear(values))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        attn = self.dropout(monotonic_probs(scores, allowed, pos_eff, self.gammas))
        return self.out_proj(self.merge(torch.matmul(attn, v)))


class Layer(nn.Module):
    """Attention -> residual -> dropout -> LayerNorm [-> FFN -> residual -> LayerNorm]."""

    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float, ffn: bool):
        super().__init__()
        self.attn = MonotonicMHA(d_model, n_heads, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.drop1 = nn.Dropout(dropout)
        self.ffn = ffn
        if ffn:
            self.lin1 = nn.Linear(d_model, d_ff)
            self.lin2 = nn.Linear(d_ff, d_model)
            self.drop_ff = nn.Dropout(dropout)
            self.drop2 = nn.Dropout(dropout)
            self.ln2 = nn.LayerNorm(d_model)

    def post(self, query: torch.Tensor, attn_out: torch.Tensor) -> torch.Tensor:
        x = self.ln1(query + self.drop1(attn_out))
        if self.ffn:
            x = self.ln2(x + self.drop2(self.lin2(self.drop_ff(torch.relu(self.lin1(x))))))
        return x

    def forward(self, query, key, values, allowed, pos_eff):
        return self.post(query, self.attn(query, key, values, allowed, pos_eff))


class AKT(nn.Module):
    def __init__(self, n_skills: int, n_questions: int, d_model: int = 256, n_blocks: int = 1,
                 n_heads: int = 8, d_ff: int = 1024, dropout: float = 0.05, final_fc: int = 512,
                 final_fc2: int = 256, l2: float = 1e-5):
        super().__init__()
        self.n_skills, self.n_questions = n_skills, n_questions
        self.d_model, self.n_blocks, self.n_heads = d_model, n_blocks, n_heads
        self.l2 = l2
        d = d_model
        self.q_embed = nn.Embedding(n_skills + 1, d)  # c_c
        self.qa_embed = nn.Embedding(2, d)  # g_r
        self.difficult_param = nn.Embedding(n_questions + 1, 1, padding_idx=0)  # u_q
        self.q_embed_diff = nn.Embedding(n_skills + 1, d)  # d_c
        self.qa_embed_diff = nn.Embedding(2, d)  # h_r
        nn.init.zeros_(self.difficult_param.weight)
        self.knowledge_encoder = nn.ModuleList([Layer(d, n_heads, d_ff, dropout, True) for _ in range(n_blocks)])
        self.question_layers = nn.ModuleList([Layer(d, n_heads, d_ff, dropout, False) for _ in range(n_blocks)])
        self.retriever_layers = nn.ModuleList([Layer(d, n_heads, d_ff, dropout, True) for _ in range(n_blocks)])
        self.out = nn.Sequential(
            nn.Linear(2 * d, final_fc), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(final_fc, final_fc2), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(final_fc2, 1))
        # Platt calibration of the output logit, a * logit + b; identity while training, fitted
        # afterwards on the validation file by calibrate.py (monotone, so AUC is unchanged).
        self.register_buffer("logit_scale", torch.ones(()))
        self.register_buffer("logit_bias", torch.zeros(()))

    @classmethod
    def from_checkpoint(cls, ck: dict) -> "AKT":
        m = cls(**ck["config"])
        sd = dict(ck["state_dict"])
        sd.setdefault("logit_scale", torch.ones(()))  # checkpoints written before calibration existed
        sd.setdefault("logit_bias", torch.zeros(()))
        m.load_state_dict(sd)
        return m

    def _head(self, x, xq):
        return self.out(torch.cat([x, xq], dim=-1)).squeeze(-1) * self.logit_scale + self.logit_bias

    # ----------------------------------------------------------------- embeddings
    def question_embedding(self, skills, questions):
        u = self.difficult_param(questions)  # [.., 1]
        x = self.q_embed(skills) + u * self.q_embed_diff(skills)
        return x, u

    def embed(self, skills, questions, responses):
        x, u = self.question_embedding(skills, questions)
        y = self.q_embed(skills) + self.qa_embed(responses) + u * (self.qa_embed_diff(responses) + self.q_embed_diff(skills))
        return x, y, u

    @staticmethod
    def _masks(L_like: torch.Tensor):
        pos = torch.arange(L_like.size(1), dtype=torch.float32, device=L_like.device)
        row, col = pos.unsqueeze(1), pos.unsqueeze(0)  # query i, key j
        incl = col <= row
        strict = col < row
        pos_eff = torch.abs(row - col)
        return incl, strict, pos_eff

    def _history(self, skills, questions, responses, keep_cache: bool = False):
        x, y, u = self.embed(skills, questions, responses)
        xq = x
        incl, strict, pos_eff = self._masks(skills)
        ke = []
        for layer in self.knowledge_encoder:
            if keep_cache:
                ke += [layer.attn.k_linear(y), layer.attn.v_linear(y)]
            y = layer(y, y, y, incl, pos_eff)
        cache = []
        for qa, ret in zip(self.question_layers, self.retriever_layers):
            if keep_cache:
                cache += [qa.attn.k_linear(x), qa.attn.v_linear(x)]
            x = qa(x, x, x, incl, pos_eff)
            if keep_cache:
                cache += [ret.attn.k_linear(x), ret.attn.v_linear(y)]
            x = ret(x, x, y, strict, pos_eff)
        return x, xq, u, cache, ke

    # ----------------------------------------------------------------- entry points
    def forward(self, skills, questions, responses) -> Tuple[torch.Tensor, torch.Tensor]:
        """Returns (logits [B, L], u [B, L, 1])."""
        x, xq, u, _, _ = self._history(skills, questions, responses)
        return self._head(x, xq), u

    def encode(self, skills, questions, responses) -> torch.Tensor:
        """History -> cache [B, 4*n_blocks, L, d_model].  For block k the four slices are
        4k+0: question-layer keys k_linear(x_k), 4k+1: question-layer values v_linear(x_k),
        4k+2: retriever keys k_linear(x_k'), 4k+3: retriever values v_linear(y)
        where x_k is the input of block k's question layer and x_k' its output."""
        _, _, _, cache, _ = self._history(skills, questions, responses, keep_cache=True)
        return torch.stack(cache, dim=1)

    def encode_with_ke(self, skills, questions, responses) -> Tuple[torch.Tensor, torch.Tensor]:
        """encode() plus the knowledge encoder's projected keys and values, ke_cache
        [B, 2*n_blocks, L, d_model] ([2i] keys, [2i+1] values of knowledge-encoder layer i),
        which append() needs to extend a history by one row without re-encoding it."""
        _, _, _, cache, ke = self._history(skills, questions, responses, keep_cache=True)
        return torch.stack(cache, dim=1), torch.stack(ke, dim=1)

    @staticmethod
    def _attend_row(a: "MonotonicMHA", query, keys, values, allowed, pos_eff):
        """One query row [B, 1, d] against projected keys / values [B, L', d]."""
        q = a.split(a.k_linear(query))
        scores = torch.matmul(q, a.split(keys).transpose(-2, -1)) / math.sqrt(a.d_k)
        p = a.dropout(monotonic_probs(scores, allowed, pos_eff, a.gammas))
        return a.out_proj(a.merge(torch.matmul(p, a.split(values))))

    def append(self, cache, ke_cache, skill, question, response) -> Tuple[torch.Tensor, torch.Tensor]:
        """Extends the encoding of a history of exactly L >= 1 real rows (no padding) by one row.

        cache [B, 4N, L, d] and ke_cache [B, 2N, L, d] from encode_with_ke (or earlier appends);
        skill / question / response [B, 1] the new row.  Returns (cache_row [B, 4N, 1, d],
        ke_row [B, 2N, 1, d]): the slices encode_with_ke would give at position L for the
        history with the row appended.  Exact because every layer is causal: row L attends only
        to rows <= L (the retriever to rows < L), so earlier rows' slices do not change.  Not
        valid when the context window drops an old row (every row's attention changes then)."""
        x, y, _ = self.embed(skill, question, response)  # [B, 1, d]
        L = cache.size(2)
        pos = torch.arange(L + 1, dtype=torch.float32, device=cache.device)
        pe_incl = (L - pos).view(1, 1, 1, L + 1)  # |L - j| for keys j = 0..L
        allowed_incl = pe_incl >= 0  # all True
        pe_strict, allowed_strict = pe_incl[..., :L], allowed_incl[..., :L]
        def self_attend(layer: Layer, h, keys_cache, vals_cache):
            """The new row's key and value, and the layer's output for the row attending over the
            cached keys / values plus its own (a self-attention layer: query = key = value = h)."""
            a = layer.attn
            k_new, v_new = a.k_linear(h), a.v_linear(h)
            keys = torch.cat([keys_cache, k_new], dim=1)
            vals = torch.cat([vals_cache, v_new], dim=1)
            return [k_new, v_new], layer.post(h, self._attend_row(a, h, keys, vals, allowed_incl, pe_incl))

        ke_rows = []
        for i, layer in enumerate(self.knowledge_encoder):
            kv, y = self_attend(layer, y, ke_cache[:, 2 * i], ke_cache[:, 2 * i + 1])
            ke_rows += kv
        rows = []
        n = len(self.question_layers)
        for k, (qa, ret) in enumerate(zip(self.question_layers, self.retriever_layers)):
            kv, x = self_attend(qa, x, cache[:, 4 * k], cache[:, 4 * k + 1])
            rows += kv
            rows += [ret.attn.k_linear(x), ret.attn.v_linear(y)]
            if k < n - 1:  # the retriever's output is only the next block's input
                x = ret.post(x, self._attend_row(ret.attn, x, cache[:, 4 * k + 2], cache[:, 4 * k + 3], allowed_strict, pe_strict))
        return torch.stack(rows, dim=1), torch.stack(ke_rows, dim=1)

    def _linear_of_candidates(self, lin: nn.Linear, skills, u, weight=None, bias=None):
        """lin(q_embed(s) + u * q_embed_diff(s)) as two gathers from per-skill tables,
        (c W^T + b)[s] + u * (d W^T)[s]: the same value up to float rounding, without a matrix
        product per candidate (in ONNX the tables are products of weights, which onnxruntime
        folds into constants when the session is created)."""
        w = lin.weight if weight is None else weight
        b = lin.bias if bias is None else bias
        tc = F.linear(self.q_embed.weight, w, b)  # [n_skills + 1, out]
        td = F.linear(self.q_embed_diff.weight, w)
        return F.embedding(skills, tc) + u * F.embedding(skills, td)

    def readout(self, cache, hist_len, cand_skills, cand_questions) -> torch.Tensor:
        """cache [B, 4N, L, d]; hist_len [B] (valid history rows, right padding after them);
        cand_skills / cand_questions [B, C].  Returns logits [B, C] for each candidate as the
        next row (position hist_len) after the history.  The candidate's own terms (its key and
        value in the first question layer, its half of the output layer's first product) come
        from per-skill tables (_linear_of_candidates), so a readout computes per candidate only
        what depends on the history."""
        xc, u = self.question_embedding(cand_skills, cand_questions)  # [B, C, d], [B, C, 1]
        L = cache.size(2)
        n = hist_len.to(torch.float32).unsqueeze(1)  # [B, 1]
        pos = torch.arange(L, dtype=torch.float32, device=cache.device).unsqueeze(0)  # [1, L]
        valid = (pos < n).unsqueeze(1).unsqueeze(1)  # [B, 1, 1, L]
        pe_hist = torch.abs(n - pos).unsqueeze(1).unsqueeze(1)  # [B, 1, 1, L]
        ones = torch.ones_like(xc[:, :, :1]).unsqueeze(1) > 0  # [B, 1, C, 1] all True
        allowed_self = torch.cat([valid.expand(-1, -1, xc.size(1), -1), ones], dim=-1)
        pe_self = torch.cat([pe_hist.expand(-1, -1, xc.size(1), -1), torch.zeros_like(ones, dtype=torch.float32)], dim=-1)
        for k, (qa, ret) in enumerate(zip(self.question_layers, self.retriever_layers)):
            a = qa.attn
            KA, VA = a.split(cache[:, 4 * k]), a.split(cache[:, 4 * k + 1])
            if k == 0:  # block 0's question layer reads the embedding itself
                qc = a.split(self._linear_of_candidates(a.k_linear, cand_skills, u))  # [B, H, C, dk]
                vc = a.split(self._linear_of_candidates(a.v_linear, cand_skills, u))
            else:
                qc, vc = a.split(a.k_linear(xc)), a.split(a.v_linear(xc))
            s_hist = torch.matmul(qc, KA.transpose(-2, -1))
            s_self = torch.sum(qc * qc, dim=-1, keepdim=True)
            scores = torch.cat([s_hist, s_self], dim=-1) / math.sqrt(a.d_k)
            p = a.dropout(monotonic_probs(scores, allowed_self, pe_self, a.gammas))
            o = torch.matmul(p[..., :L], VA) + p[..., L:] * vc
            xc = qa.post(xc, a.out_proj(a.merge(o)))
            r = ret.attn
            KR, VR = r.split(cache[:, 4 * k + 2]), r.split(cache[:, 4 * k + 3])
            qr = r.split(r.k_linear(xc))
            scores = torch.matmul(qr, KR.transpose(-2, -1)) / math.sqrt(r.d_k)
            p = r.dropout(monotonic_probs(scores, valid, pe_hist, r.gammas))
            xc = ret.post(xc, r.out_proj(r.merge(torch.matmul(p, VR))))
        # The output layer's first product, cat([x, xq]) W^T + b, split into x's half and the
        # candidate's half (a table lookup: xq is the candidate's embedding).
        first = self.out[0]
        d = self.d_model
        pre = F.linear(xc, first.weight[:, :d]) + self._linear_of_candidates(first, cand_skills, u, first.weight[:, d:], first.bias)
        return self.out[1:](pre).squeeze(-1) * self.logit_scale + self.logit_bias

    def loss(self, skills, questions, responses, mask):
        """AKT's training objective: summed BCE over real rows + l2 * sum(u_q^2) over rows."""
        logits, u = self(skills, questions, responses)
        bce = F.binary_cross_entropy_with_logits(logits, responses.to(logits.dtype), reduction="none")
        return (bce * mask).sum() + self.l2 * (u ** 2).sum(), logits

    def config(self) -> dict:
        return {"n_skills": self.n_skills, "n_questions": self.n_questions, "d_model": self.d_model,
                "n_blocks": self.n_blocks, "n_heads": self.n_heads,
                "d_ff": self.knowledge_encoder[0].lin1.out_features,
                "final_fc": self.out[0].out_features, "final_fc2": self.out[3].out_features, "l2": self.l2}


def load_checkpoint(path: str) -> Tuple[AKT, dict]:
    """A checkpoint written by train.py or calibrate.py, on the CPU in eval mode, and its dict."""
    ck = torch.load(path, map_location="cpu")
    return AKT.from_checkpoint(ck).eval(), ck
