// deskbench-gtk-dialogs: the command the workbench's file dialog service calls for a file dialog on the server's files
// (patched in by docker/desktop/build/vscode-osworld-defaults.py). It runs file-chooser.py, a GTK 3 file chooser on
// the desktop's display, and answers { paths }: the chosen paths, none when cancelled. It throws when no chooser could
// be shown (no display, GTK missing...): the workbench then shows its own quick pick, so a dialog always comes up.
// Plain JavaScript, loaded by code-server's extension host (on the desktop, as its user) as a built-in extension.
const vscode = require('vscode');
const { execFile } = require('node:child_process');
const path = require('node:path');

// The desktop VS Code's titles where the web workbench's differ: Electron titles "Open" what the web calls
// "Open File or Folder" (File > Open... on macOS, and the web's pickFileFolderAndOpen).
const DESKTOP_TITLES = { 'Open File or Folder': 'Open' };

let open = false;

/** @param {{save: boolean, title?: string, label?: string, defaultPath?: string, canSelectFiles?: boolean,
 *  canSelectFolders?: boolean, canSelectMany?: boolean, filters?: {name: string, extensions: string[]}[]}} request */
function showFileDialog(request) {
  // One dialog at a time, as the desktop VS Code (a second request while one is open is answered as cancelled).
  if (open) return Promise.resolve({ paths: [] });
  open = true;
  const title = DESKTOP_TITLES[request.title] ?? request.title ?? '';
  const env = { ...process.env, DISPLAY: process.env.DISPLAY || ':0' };
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [path.join(__dirname, 'file-chooser.py'), JSON.stringify({ ...request, title })],
      { env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        open = false;
        if (error) return reject(new Error(`the GTK file chooser failed (${error.code ?? error.signal}): ${stderr.trim().slice(-2000)}`));
        try {
          const answer = JSON.parse(stdout.trim().split('\n').pop());
          if (!Array.isArray(answer.paths)) throw new Error('no paths');
          resolve({ paths: answer.paths });
        } catch (parseError) {
          reject(new Error(`the GTK file chooser answered ${JSON.stringify(stdout.slice(-500))}: ${parseError.message}`));
        }
      });
  });
}

function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand('deskbench.gtkFileDialog', showFileDialog));
}

module.exports = { activate, deactivate() {} };
