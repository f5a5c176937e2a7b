// deskbench-jupyter: a notebook controller for VS Code's built-in "jupyter-notebook" type that executes cells on a
// Jupyter kernel through bridge.py (one bridge process, hence one kernel, per notebook). Plain JavaScript, loaded by
// code-server's extension host as a built-in extension: nothing to compile at image build.
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const STDOUT = 'application/vnd.code.notebook.stdout';
const STDERR = 'application/vnd.code.notebook.stderr';

/** A bridge process for one notebook: run(code, onMessage) resolves with the "done" message. */
class Kernel {
  constructor(notebook) {
    const kernelName = notebook.metadata?.metadata?.kernelspec?.name ?? notebook.metadata?.kernelspec?.name ?? '';
    const cwd = notebook.uri.scheme === 'file' ? path.dirname(notebook.uri.fsPath) : undefined;
    // Debian's python3 has jupyter_client; the kernel itself runs from its kernelspec (the task's venv when registered).
    this.process = spawn('/usr/bin/python3', [path.join(__dirname, 'bridge.py'), kernelName], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.handlers = new Map();
    this.queue = Promise.resolve();
    this.stderr = '';
    this.ready = new Promise((resolve, reject) => {
      this.process.on('exit', (code) => {
        const error = new Error(`the Jupyter kernel bridge exited (${code}): ${this.stderr.slice(-2000)}`);
        reject(error);
        for (const handler of this.handlers.values()) handler.fail(error);
        this.handlers.clear();
      });
      readline.createInterface({ input: this.process.stdout }).on('line', (line) => {
        const message = JSON.parse(line);
        if (message.ready) return resolve(message);
        const handler = this.handlers.get(message.id);
        if (!handler) return;
        if (message.done) {
          this.handlers.delete(message.id);
          handler.done(message);
        } else handler.message(message);
      });
    });
    this.process.stderr.on('data', (chunk) => { this.stderr = (this.stderr + chunk).slice(-10_000); });
  }

  /** Cells run one after another, as in Jupyter. */
  run(id, code, onMessage) {
    const result = this.queue.then(async () => {
      await this.ready;
      return new Promise((done, fail) => {
        this.handlers.set(id, { message: onMessage, done, fail });
        this.process.stdin.write(JSON.stringify({ id, code }) + '\n');
      });
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  interrupt() { this.process.stdin.write(JSON.stringify({ interrupt: true }) + '\n'); }
  dispose() { this.process.kill(); }
}

/** A Jupyter output as VS Code's ipynb serializer expects it back (outputType etc. in the output's metadata). */
function toCellOutput(output) {
  if (output.output_type === 'stream') {
    const mime = output.name === 'stderr' ? STDERR : STDOUT;
    return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(output.text, mime)], { outputType: 'stream' });
  }
  if (output.output_type === 'error') {
    const error = { name: output.ename, message: output.evalue, stack: output.traceback.join('\n') };
    return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(error)], { outputType: 'error', originalError: output });
  }
  const items = Object.entries(output.data).map(([mime, value]) => {
    if (mime.startsWith('image/') && mime !== 'image/svg+xml') return new vscode.NotebookCellOutputItem(Buffer.from(value, 'base64'), mime);
    if (typeof value !== 'string') return vscode.NotebookCellOutputItem.json(value, mime);
    return vscode.NotebookCellOutputItem.text(value, mime);
  });
  return new vscode.NotebookCellOutput(items, {
    outputType: output.output_type, metadata: output.metadata, executionCount: output.execution_count,
  });
}

/**
 * Writes the kernel's language_info into the notebook's metadata, as Jupyter does. VS Code's ipynb support saves a
 * cell's execution count only for notebooks that have one (Microsoft's Jupyter extension writes it on connect).
 */
async function recordLanguage(notebook, kernel) {
  const metadata = notebook.metadata ?? {};
  if (metadata.metadata?.language_info?.name) return;
  let ready;
  try {
    ready = await kernel.ready;
  } catch {
    return; // the cell run reports the bridge's failure
  }
  if (!ready.language_info?.name) return;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata({
    ...metadata, metadata: { ...metadata.metadata, language_info: ready.language_info },
  })]);
  await vscode.workspace.applyEdit(edit);
}

// A notebook that `code` opens as a fresh desktop's first window can reach the workbench before the extension host
// has registered the ipynb notebook type; the workbench then shows its JSON as text (GUI-OS's init.sh opens tasks'
// notebooks that way, and 4 of 32 GUI-OS solutions met the raw JSON on a busy machine). Desktop VS Code knows the
// type from the start, so here such a tab is reopened in the notebook editor, for the first seconds of a window only:
// later, "Reopen Editor With… Text Editor" stays the user's choice.
const STARTUP_REOPEN_MS = 20_000;

async function reopenAsNotebook(tab) {
  if (!(tab.input instanceof vscode.TabInputText) || !tab.input.uri.path.endsWith('.ipynb')) return;
  await vscode.commands.executeCommand('vscode.openWith', tab.input.uri, 'jupyter-notebook', { viewColumn: tab.group.viewColumn, preview: false });
  await vscode.window.tabGroups.close(tab, true);
}

function reopenStartupNotebooks(context) {
  // fired from events: a failure is reported here, not left as an unhandled rejection in the extension host
  const reopen = (tab) => reopenAsNotebook(tab).catch((error) => console.error(`deskbench-jupyter: could not reopen ${tab.label} as a notebook:`, error));
  vscode.window.tabGroups.all.flatMap((group) => group.tabs).forEach(reopen);
  const watcher = vscode.window.tabGroups.onDidChangeTabs(({ opened }) => opened.forEach(reopen));
  const timer = setTimeout(() => watcher.dispose(), STARTUP_REOPEN_MS);
  context.subscriptions.push(watcher, { dispose: () => clearTimeout(timer) });
}

function activate(context) {
  reopenStartupNotebooks(context);
  const kernels = new Map(); // notebook uri → Kernel
  const kernelFor = (notebook) => {
    const key = notebook.uri.toString();
    if (!kernels.has(key)) kernels.set(key, new Kernel(notebook));
    return kernels.get(key);
  };
  let nextId = 0;

  const controller = vscode.notebooks.createNotebookController('deskbench-jupyter', 'jupyter-notebook', 'Python 3 (ipykernel)');
  controller.supportedLanguages = ['python'];
  controller.supportsExecutionOrder = true;
  controller.description = 'Jupyter kernel';
  controller.executeHandler = async (cells, notebook) => {
    const kernel = kernelFor(notebook);
    await recordLanguage(notebook, kernel);
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      execution.start(Date.now());
      await execution.clearOutput();
      // Consecutive text on one stream stays one output, as Jupyter shows and saves it.
      const outputs = [];
      const render = () => execution.replaceOutput(outputs.map(toCellOutput));
      let success = false;
      try {
        const done = await kernel.run(String(nextId++), cell.document.getText(), (message) => {
          if (message.clear) outputs.length = 0;
          else {
            const last = outputs[outputs.length - 1];
            const output = message.output;
            if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) last.text += output.text;
            else outputs.push(output);
          }
          render();
        });
        execution.executionOrder = done.execution_count ?? undefined;
        success = done.status === 'ok';
      } catch (error) {
        await execution.replaceOutput([new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(error)])]);
      }
      execution.end(success, Date.now());
      if (!success) break; // Jupyter stops "run all" at the first error
    }
  };
  controller.interruptHandler = (notebook) => kernels.get(notebook.uri.toString())?.interrupt();

  // The only kernel here: preferred for every notebook, so VS Code selects it without asking.
  const prefer = (notebook) => {
    if (notebook.notebookType === 'jupyter-notebook') controller.updateNotebookAffinity(notebook, vscode.NotebookControllerAffinity.Preferred);
  };
  vscode.workspace.notebookDocuments.forEach(prefer);
  context.subscriptions.push(
    controller,
    vscode.workspace.onDidOpenNotebookDocument(prefer),
    vscode.workspace.onDidCloseNotebookDocument((notebook) => {
      kernels.get(notebook.uri.toString())?.dispose();
      kernels.delete(notebook.uri.toString());
    }),
    { dispose: () => kernels.forEach((kernel) => kernel.dispose()) },
  );
}

module.exports = { activate, deactivate() {} };
