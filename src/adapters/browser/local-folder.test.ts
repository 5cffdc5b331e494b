import { describe, expect, it } from 'vitest';
import { checkFolder, dtypeOfOnnxFile, folderModelId, type PickedFile } from './local-folder';

const file = (path: string, text: string): PickedFile => ({ path, size: new Blob([text]).size, blob: new Blob([text]) });
const good = (): PickedFile[] => [file('config.json', '{"model_type":"gpt2"}'), file('tokenizer.json', '{}'), file('tokenizer_config.json', '{}'), file('onnx/model_q4f16.onnx', 'onnx bytes'), file('README.md', '# not read')];

describe('a model folder from disk (the checks)', () => {
  it('reads the dtype from the ONNX file name as onnxFileOf names it', () => {
    expect(dtypeOfOnnxFile('onnx/model.onnx')).toBe('fp32');
    expect(dtypeOfOnnxFile('onnx/model_fp16.onnx')).toBe('fp16');
    expect(dtypeOfOnnxFile('onnx/model_q4f16.onnx')).toBe('q4f16');
    expect(dtypeOfOnnxFile('onnx/model_quantized.onnx')).toBe('q8');
    expect(dtypeOfOnnxFile('onnx/model_q4.onnx')).toBe('q4');
    expect(dtypeOfOnnxFile('onnx/decoder.onnx')).toBeNull();
  });

  it('keeps the JSON files and the one ONNX file, and names what is missing or broken', async () => {
    const r = await checkFolder('m', good());
    expect(r.dtype).toBe('q4f16');
    expect(r.needed.map((f) => f.path).sort()).toEqual(['config.json', 'onnx/model_q4f16.onnx', 'tokenizer.json', 'tokenizer_config.json']);
    await expect(checkFolder('m', good().filter((f) => f.path !== 'tokenizer_config.json'))).rejects.toThrow('tokenizer_config.json is missing from the folder "m"');
    await expect(checkFolder('m', good().filter((f) => !f.path.endsWith('.onnx')))).rejects.toThrow('has no ONNX weights');
    await expect(checkFolder('m', [...good(), file('onnx/model.onnx', 'x')])).rejects.toThrow('has 2 ONNX files (onnx/model_q4f16.onnx, onnx/model.onnx)');
    await expect(checkFolder('m', [...good().filter((f) => f.path !== 'config.json'), file('config.json', '{"model_type":')])).rejects.toThrow('config.json in the folder "m" is not valid JSON');
  });

  it('makes the folder name a model id the library accepts', () => {
    expect(folderModelId('tiny-voice-lm')).toBe('folder/tiny-voice-lm');
    expect(folderModelId('My Model (q4)')).toBe('folder/My-Model-q4');
    expect(folderModelId('a--b..c')).toBe('folder/a-b.c');
    expect(folderModelId('***')).toBe('folder/model');
  });
});
