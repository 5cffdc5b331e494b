#!/usr/bin/env python3
"""Builds the project's tiny test language model for the in-page ("In this browser") LLM provider.

Run with Debian's interpreter (torch 1.13, onnx 1.12):  /usr/bin/python3 training/tiny-lm/make_tiny_lm.py

Why it exists: the machines that test this project cannot reach any model hub, so the code that
downloads, caches and runs a model with transformers.js is exercised on a model we make here. It is
a byte-level GPT-2-style decoder (2 layers, d=64, ~150k parameters) trained for a few seconds on
student-voice replies we wrote ourselves (below), exported to ONNX with a key/value cache in the
input/output layout transformers.js feeds to decoder-only models, plus config.json,
generation_config.json, tokenizer.json (byte-level BPE with no merges: one token per byte) and
tokenizer_config.json (a chat template). It is a test fixture, not a language model anyone should
use: it repeats a handful of memorised replies.

Output: e2e/fixtures/tiny-lm/educlaw/tiny-voice-lm/ (the hub layout <org>/<name>/<file>).
Deterministic: a fixed seed; re-running gives the same weights on the same torch build.
"""
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
random.seed(17)
torch.set_num_threads(1)
torch.set_flush_denormal(True)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, 'e2e', 'fixtures', 'tiny-lm', 'educlaw', 'tiny-voice-lm')

N_LAYER, N_HEAD, N_EMBD, N_POS = 2, 4, 64, 512
SPECIALS = ['<|system|>', '<|user|>', '<|assistant|>', '<|end|>']
VOCAB = 256 + len(SPECIALS)
SYS_ID, USER_ID, ASSIST_ID, END_ID = 256, 257, 258, 259
# The chat template keeps only the tail of the last user message (where the voice prompt says what
# this reply must do): the model is tiny, and a short prompt is what it can learn in minutes on two
# shared cores. (A real model's template renders every message.)
SYS_TAIL, USER_TAIL = 0, 72


def bytes_to_unicode():
    """GPT-2's byte -> printable character table (the ByteLevel pre-tokenizer's alphabet)."""
    bs = list(range(ord('!'), ord('~') + 1)) + list(range(ord('¡'), ord('¬') + 1)) + list(range(ord('®'), ord('ÿ') + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


B2U = bytes_to_unicode()


def encode_text(s):
    return list(s.encode('utf-8'))


# ---- training text: our own sentences, in the voice's reply format -------------------------------
CAN = [
    ('First I multiply both sides by 2, so I get x = 14.', '14'),
    ('I add the two parts: 3 + 4 = 7.', '7'),
    ('I think I divide 12 by 3 first, which gives 4.', '4'),
    ('My first step is to write 5 x 6 = 30.', '30'),
]
CANNOT = [
    'I am not sure where to start. Could you give me a hint?',
    'I tried to add them but it does not look right. What should I do first?',
    'I am confused about this one. Can you show me a similar example?',
    'I do not get why we move the number to the other side.',
]
TAKE = [
    ('Okay, I will write the answer you gave me.', None),
]
FREE = [
    'Okay, thanks!',
    'Sounds good, I will keep going.',
    'Thank you, that helps.',
]
SYSTEMS = [
    'Reply with one JSON object and nothing else.',
    # the closing sentence of the page's voice prompt (src/core/learner/llm-voice.ts), which the template's tail keeps
    'Reply with one JSON object and nothing else: {"message": "<what you write to the tutor>", "answer": "<the answer to the problem that your message commits to, exactly as written in the message>" or null if your message gives no answer}.',
    'You are a student in an online math course. Reply with one JSON object and nothing else.',
]
TUTOR = [
    'Let us look at the first step together.',
    'What do you notice about the two numbers?',
    'Try the next problem and tell me your first step.',
    'Good effort. What would you do next?',
]


def reply(message, answer):
    return json.dumps({'message': message, 'answer': answer})


def example():
    kind = random.choice(['can', 'cannot', 'take', 'free', 'retry'])
    tutor = random.choice(TUTOR)
    if kind == 'retry':
        user = f'That was not a valid reply ({random.choice(["not JSON", "message: Required", "answer: Expected string"])}). Reply with the JSON object only.'
        out = reply(random.choice(FREE), None)
    elif kind == 'free':
        user = f'Your tutor just wrote:\n> {tutor}\n\nYou are not working on a problem right now. Reply briefly and naturally.'
        out = reply(random.choice(FREE), None)
    else:
        stem = f'Solve {random.randint(2, 9)}x = {random.randint(10, 40)}.'
        user = f'Your tutor just wrote:\n> {tutor}\n\nThe problem you are working on: {stem}\n\nHow well you know this kind of problem: you would get it right about {random.randint(5, 95)}% of the time on your own.\n\n'
        if kind == 'can':
            m, a = random.choice(CAN)
            user += 'This time you CAN do it: show one correct step of your own working (for example an equation or a computation). If you give an answer, it must be correct.'
            out = reply(m, None if random.random() < 0.5 else a)
        elif kind == 'cannot':
            mistake = random.choice(['', f'; your thinking follows this mistake: adds instead of multiplying (which leads to the answer {random.randint(2, 30)})'])
            user += f'This time you CANNOT do it correctly: you are confused{mistake}. Show your (wrong) attempt or ask a question. Do not write the correct answer.'
            out = reply(random.choice(CANNOT), None)
        else:
            user += 'Your tutor has told you the answer (7). You take it: say what you will write, and give that answer.'
            out = reply(TAKE[0][0], '7')
    system = random.choice(SYSTEMS)
    prompt = ([SYS_ID] + encode_text(system[-SYS_TAIL:]) if SYS_TAIL else []) + [USER_ID] + encode_text(user[-USER_TAIL:]) + [ASSIST_ID]
    target = encode_text(out) + [END_ID]
    return prompt, target


# ---- the model --------------------------------------------------------------------------------
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(N_EMBD)
        self.qkv = nn.Linear(N_EMBD, 3 * N_EMBD)
        self.proj = nn.Linear(N_EMBD, N_EMBD)
        self.ln2 = nn.LayerNorm(N_EMBD)
        self.fc = nn.Linear(N_EMBD, 4 * N_EMBD)
        self.out = nn.Linear(4 * N_EMBD, N_EMBD)

    def forward(self, x, past_k, past_v, mask):
        b, t, _ = x.shape
        hd = N_EMBD // N_HEAD
        q, k, v = self.qkv(self.ln1(x)).split(N_EMBD, dim=2)
        q = q.view(b, t, N_HEAD, hd).transpose(1, 2)
        k = torch.cat([past_k, k.view(b, t, N_HEAD, hd).transpose(1, 2)], dim=2)
        v = torch.cat([past_v, v.view(b, t, N_HEAD, hd).transpose(1, 2)], dim=2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(~mask, -1e9)
        y = F.softmax(att, dim=-1) @ v
        y = y.transpose(1, 2).reshape(b, t, N_EMBD)
        x = x + self.proj(y)
        x = x + self.out(F.gelu(self.fc(self.ln2(x))))
        return x, k, v


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, N_EMBD)
        self.wpe = nn.Embedding(N_POS, N_EMBD)
        self.blocks = nn.ModuleList([Block() for _ in range(N_LAYER)])
        self.ln_f = nn.LayerNorm(N_EMBD)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)

    def forward(self, input_ids, attention_mask, *past):
        b, t = input_ids.shape
        past_len = past[0].shape[2]
        # positions follow the cache length (dynamic in the exported graph)
        pos = (torch.arange(t, device=input_ids.device) + past_len).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(pos)
        total = past_len + t
        qi = torch.arange(t).unsqueeze(1) + past_len
        kj = torch.arange(total).unsqueeze(0)
        causal = (kj <= qi).unsqueeze(0).unsqueeze(0)
        keep = (attention_mask > 0).unsqueeze(1).unsqueeze(1)
        mask = causal & keep
        presents = []
        for i, blk in enumerate(self.blocks):
            x, k, v = blk(x, past[2 * i], past[2 * i + 1], mask)
            presents += [k, v]
        logits = self.ln_f(x) @ self.wte.weight.t()
        return (logits, *presents)


def empty_past(b):
    hd = N_EMBD // N_HEAD
    return [torch.zeros(b, N_HEAD, 0, hd) for _ in range(2 * N_LAYER)]


def train(model, steps=700, batch=8):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    for step in range(steps):
        seqs = [example() for _ in range(batch)]
        n = max(len(p) + len(t) for p, t in seqs)
        ids = torch.zeros(batch, n, dtype=torch.long)
        labels = torch.full((batch, n), -100, dtype=torch.long)
        mask = torch.zeros(batch, n, dtype=torch.long)
        for i, (p, t) in enumerate(seqs):
            s = p + t
            ids[i, : len(s)] = torch.tensor(s)
            mask[i, : len(s)] = 1
            # learn only the reply (after the assistant marker); the prompt is conditioning
            labels[i, len(p) - 1 : len(s) - 1] = torch.tensor(t)
        logits = model(ids, mask, *empty_past(batch))[0]
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0 or step == steps - 1:
            print(f'step {step} loss {loss.item():.4f} ({time.time() - t0:.0f} s)', flush=True)
    return loss.item()


def greedy(model, prompt, n=160):
    ids = torch.tensor([prompt])
    out = []
    with torch.no_grad():
        past = empty_past(1)
        x = ids
        mask = torch.ones(1, ids.shape[1], dtype=torch.long)
        for _ in range(n):
            r = model(x, mask, *past)
            nxt = int(r[0][0, -1].argmax())
            if nxt == END_ID:
                break
            out.append(nxt)
            past = list(r[1:])
            x = torch.tensor([[nxt]])
            mask = torch.cat([mask, torch.ones(1, 1, dtype=torch.long)], dim=1)
    return bytes(o for o in out if o < 256).decode('utf-8', 'replace')


def write_files(model):
    os.makedirs(os.path.join(OUT, 'onnx'), exist_ok=True)
    names_in = ['input_ids', 'attention_mask']
    names_out = ['logits']
    dyn = {'input_ids': {0: 'batch_size', 1: 'sequence_length'}, 'attention_mask': {0: 'batch_size', 1: 'total_sequence_length'}, 'logits': {0: 'batch_size', 1: 'sequence_length'}}
    for i in range(N_LAYER):
        for kv in ('key', 'value'):
            names_in.append(f'past_key_values.{i}.{kv}')
            names_out.append(f'present.{i}.{kv}')
            dyn[f'past_key_values.{i}.{kv}'] = {0: 'batch_size', 2: 'past_sequence_length'}
            dyn[f'present.{i}.{kv}'] = {0: 'batch_size', 2: 'total_sequence_length'}
    hd = N_EMBD // N_HEAD
    dummy = (torch.ones(1, 3, dtype=torch.long), torch.ones(1, 5, dtype=torch.long), *[torch.zeros(1, N_HEAD, 2, hd) for _ in range(2 * N_LAYER)])
    model.eval()
    torch.onnx.export(model, dummy, os.path.join(OUT, 'onnx', 'model.onnx'), input_names=names_in, output_names=names_out, dynamic_axes=dyn, opset_version=17, do_constant_folding=True)
    import onnx
    onnx.checker.check_model(onnx.load(os.path.join(OUT, 'onnx', 'model.onnx')))

    config = {
        'model_type': 'gpt2', 'architectures': ['GPT2LMHeadModel'], 'vocab_size': VOCAB, 'n_positions': N_POS, 'n_ctx': N_POS,
        'n_embd': N_EMBD, 'n_layer': N_LAYER, 'n_head': N_HEAD, 'bos_token_id': SYS_ID, 'eos_token_id': END_ID, 'pad_token_id': END_ID,
        'use_cache': True, 'transformers.js_config': {'dtype': 'fp32'},
        '_comment': 'EduClaw Lab test fixture made by training/tiny-lm/make_tiny_lm.py; not a usable language model.',
    }
    gen = {'bos_token_id': SYS_ID, 'eos_token_id': END_ID, 'pad_token_id': END_ID, 'max_length': N_POS, 'do_sample': False}
    vocab = {B2U[b]: b for b in range(256)}
    added = [{'id': 256 + i, 'content': s, 'single_word': False, 'lstrip': False, 'rstrip': False, 'normalized': False, 'special': True} for i, s in enumerate(SPECIALS)]
    for i, s in enumerate(SPECIALS):
        vocab[s] = 256 + i
    tokenizer = {
        'version': '1.0', 'truncation': None, 'padding': None, 'added_tokens': added, 'normalizer': None,
        'pre_tokenizer': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': True, 'use_regex': True},
        'post_processor': None,
        'decoder': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': True, 'use_regex': True},
        'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'continuing_subword_prefix': None, 'end_of_word_suffix': None, 'fuse_unk': False, 'byte_fallback': False, 'ignore_merges': False, 'vocab': vocab, 'merges': []},
    }
    template = (
        "{%- set sys = messages | selectattr('role', 'equalto', 'system') | list -%}"
        "{%- set users = messages | selectattr('role', 'equalto', 'user') | list -%}"
        + ("{%- if sys | length > 0 %}<|system|>{{ sys[0]['content'][-" + str(SYS_TAIL) + ":] }}{% endif -%}" if SYS_TAIL else "")
        +         "{%- if users | length > 0 %}<|user|>{{ users[-1]['content'][-" + str(USER_TAIL) + ":] }}{% endif -%}"
        "{%- if add_generation_prompt %}<|assistant|>{% endif -%}"
    )
    tok_config = {
        'tokenizer_class': 'GPT2Tokenizer', 'bos_token': '<|system|>', 'eos_token': '<|end|>', 'pad_token': '<|end|>', 'unk_token': None,
        'model_max_length': N_POS, 'clean_up_tokenization_spaces': False, 'add_bos_token': False, 'chat_template': template,
        'added_tokens_decoder': {str(a['id']): {k: v for k, v in a.items() if k != 'id'} for a in added},
    }
    for name, obj in [('config.json', config), ('generation_config.json', gen), ('tokenizer.json', tokenizer), ('tokenizer_config.json', tok_config)]:
        with open(os.path.join(OUT, name), 'w', encoding='utf-8') as f:
            json.dump(obj, f, ensure_ascii=False, indent=1)
            f.write('\n')


def main():
    model = TinyLM()
    n = sum(p.numel() for p in model.parameters())
    print(f'parameters: {n}')
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 700
    final = train(model, steps=steps)
    model.eval()
    for _ in range(3):
        p, t = example()
        print('sample:', greedy(model, p))
    write_files(model)
    print(f'final loss {final:.4f}; wrote {OUT}')


if __name__ == '__main__':
    main()
