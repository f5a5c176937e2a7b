// Python's `open(path).read()` and `for line in open(path)`, as OSWorld's metrics read text files: strict UTF-8 (a
// decode error throws), universal newlines, the BOM kept, lines that keep their "\n".
import { readFileSync } from 'node:fs';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `open(path).read()`: UTF-8 (a decode error throws, as Python's does), "\r\n" and "\r" read as "\n". */
export function readPythonText(path: string): string {
  return decodePythonText(readFileSync(path));
}

export function decodePythonText(bytes: Uint8Array): string {
  return utf8.decode(bytes).replace(/\r\n?/g, '\n');
}

/** `for line in open(path)`: lines keep their "\n". */
export function pythonFileLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
