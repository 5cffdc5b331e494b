import { describe, expect, it } from 'vitest';
import { onnxFileOf, parseToolCalls, templateMessages, toolProtocol } from './local-llm';
import { LOCAL_MODELS, modelPrefix, neededFiles, normaliseHub } from './local-models';

const tools = [{ name: 'send_message', description: 'Send a message to the learner', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }];

describe('the in-browser provider (pure parts)', () => {
  it('reads <tool_call> blocks back as tool calls and keeps the rest as content', () => {
    let n = 0;
    const r = parseToolCalls('Let me help.\n<tool_call>{"name": "send_message", "arguments": {"text": "Try 2x = 6"}}</tool_call>\n<tool_call>{"name": "stay_silent", "arguments": {}}</tool_call>', () => ++n);
    expect(r.content).toBe('Let me help.');
    expect(r.toolCalls).toEqual([
      { id: 'local-call-1', name: 'send_message', arguments: '{"text":"Try 2x = 6"}' },
      { id: 'local-call-2', name: 'stay_silent', arguments: '{}' },
    ]);
  });

  it('keeps a malformed block as a call with no name and its raw text (the engine reports it), and plain text as content', () => {
    const r = parseToolCalls('<tool_call>{"name": send_message}</tool_call>', () => 1);
    expect(r.toolCalls).toEqual([{ id: 'local-call-1', name: '', arguments: '{"name": send_message}' }]);
    expect(r.content).toBeNull();
    expect(parseToolCalls('Just text.', () => 1)).toEqual({ content: 'Just text.', toolCalls: [] });
  });

  it('writes the text protocol for templates without tools, and replays calls and results in it', () => {
    const msgs = templateMessages(
      {
        messages: [
          { role: 'user', content: 'A help request' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'send_message', arguments: '{"text":"hi"}' }] },
          { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
        ],
        tools,
      },
      false,
    );
    expect(msgs[0]).toEqual({ role: 'system', content: toolProtocol(tools) });
    expect(msgs[0]!.content).toContain('send_message');
    expect(msgs[0]!.content).toContain('"required":["text"]');
    expect(msgs[2]).toEqual({ role: 'assistant', content: '<tool_call>{"name": "send_message", "arguments": {"text":"hi"}}</tool_call>' });
    expect(msgs[3]).toEqual({ role: 'user', content: 'Tool result (c1):\n{"ok":true}' });
    // with tools in the template: no protocol message, results as tool messages
    const t = templateMessages({ messages: [{ role: 'tool', toolCallId: 'c1', content: 'x' }], tools }, true);
    expect(t).toEqual([{ role: 'tool', content: 'x' }]);
  });

  it('names the ONNX file of a dtype as transformers.js does, and picks the files a load fetches', () => {
    expect(onnxFileOf('fp32')).toBe('onnx/model.onnx');
    expect(onnxFileOf('q4f16')).toBe('onnx/model_q4f16.onnx');
    expect(onnxFileOf('q8')).toBe('onnx/model_quantized.onnx');
    const all = [
      { path: 'config.json', size: 1, sha256: null },
      { path: 'README.md', size: 1, sha256: null },
      { path: 'onnx/model.onnx', size: 9, sha256: null },
      { path: 'onnx/model_q4f16.onnx', size: 5, sha256: null },
      { path: 'onnx/model_q4f16.onnx_data', size: 7, sha256: null },
    ];
    expect(neededFiles(all, 'onnx/model_q4f16.onnx').map((f) => f.path)).toEqual(['config.json', 'onnx/model_q4f16.onnx', 'onnx/model_q4f16.onnx_data']);
  });

  it('checks hub addresses with a clear error, and every curated model has a size and its source', () => {
    expect(normaliseHub('http://127.0.0.1:4402')).toBe('http://127.0.0.1:4402/');
    expect(modelPrefix('https://huggingface.co', 'a/b')).toBe('https://huggingface.co/a/b/resolve/');
    expect(() => normaliseHub('huggingface')).toThrow(/"huggingface" is not a URL/);
    expect(() => normaliseHub('file:///tmp/x')).toThrow(/must be http\(s\)/);
    for (const m of LOCAL_MODELS) {
      expect(m.downloadBytes).toBeGreaterThan(0);
      expect(m.sizeSource.length).toBeGreaterThan(5);
    }
  });
});
