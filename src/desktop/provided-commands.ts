// The one table of what the deskbench/desktop image (docker/desktop/) gives the programs task files run: the apps and
// tools it provides, and the commands it lacks on purpose with the reason. `deskbench check` counts a task runnable
// only when every program it runs is provided; a unit test keeps every command of the three corpora in one of the two
// lists, and the GNOME desktop test runs `command -v` on every provided name in the image, so the table cannot lie.
// Names are as tasks call them; an absolute path counts by its basename (`/usr/bin/thunderbird` is thunderbird).
// A provided program may still need the internet for what a task asks of it (`apt-get install`, `git clone`): the
// task's `internet` tag says so, not this table.

/** Program → what provides it in the image. */
export const PROVIDED_COMMANDS: Readonly<Record<string, string>> = {
  // The apps tasks open.
  'google-chrome': 'Chromium, under the name and process name of Google Chrome (/usr/local/bin/google-chrome)',
  code: 'VS Code (code-server in a desktop window, /usr/local/bin/code)',
  vlc: 'VLC',
  gimp: 'GIMP 2.10',
  libreoffice: 'LibreOffice',
  soffice: 'LibreOffice',
  thunderbird: 'Thunderbird',
  gedit: 'gedit',
  nautilus: 'Files (nautilus)',
  'gnome-terminal': 'GNOME Terminal',
  jupyter: "Jupyter's command and kernel (Debian jupyter-core, python3-ipykernel); see jupyter-lab below",
  'jupyter-kernelspec': 'Jupyter (Debian python3-jupyter-client): `jupyter kernelspec list`',
  'jupyter-notebook': 'the classic Jupyter Notebook server (Debian jupyter-notebook 6.4): `jupyter notebook --port N`',
  'jupyter-nbconvert': 'nbconvert (Debian jupyter-nbconvert): `jupyter nbconvert --to notebook --execute`',
  // The desktop's settings, sound, time and default apps.
  gsettings: 'GLib (libglib2.0-bin)',
  gio: 'GLib (libglib2.0-bin)',
  'xdg-open': 'xdg-utils',
  'xdg-mime': 'xdg-utils',
  'update-desktop-database': 'desktop-file-utils',
  pactl: 'PulseAudio (pulseaudio-utils)',
  pulseaudio: 'PulseAudio',
  timedatectl: 'systemd (systemd-timedated, activated by the system bus)',
  wmctrl: 'wmctrl',
  xsel: 'xsel',
  ffmpeg: 'FFmpeg',
  // Tools the setup and check commands use.
  socat: "socat (forwards Chrome's remote debugging port)",
  jq: 'jq',
  bc: 'bc',
  python: 'Python 3.11 (Debian python-is-python3)',
  python3: 'Python 3.11',
  uv: 'a stand-in for uv, enough for GUI-OS init scripts (/usr/local/bin/uv, docs/desktop.md)',
  git: 'git',
  curl: 'curl',
  unzip: 'unzip',
  zip: 'zip',
  tar: 'tar',
  apt: 'apt (installs need the internet: such tasks are tagged internet)',
  'apt-get': 'apt (installs need the internet: such tasks are tagged internet)',
  bash: 'bash',
  sh: 'dash',
  awk: 'mawk',
  sed: 'sed',
  grep: 'grep',
  diff: 'diffutils',
  getent: 'libc-bin',
  hostname: 'hostname',
  su: 'util-linux',
  which: 'debianutils',
  ps: 'procps',
  pkill: 'procps',
  killall: 'psmisc',
  cat: 'coreutils',
  chmod: 'coreutils',
  cp: 'coreutils',
  cut: 'coreutils',
  head: 'coreutils',
  ls: 'coreutils',
  mkdir: 'coreutils',
  mv: 'coreutils',
  rm: 'coreutils',
  sleep: 'coreutils',
  stat: 'coreutils',
  tee: 'coreutils',
  touch: 'coreutils',
  wc: 'coreutils',
};

/** Program → why the image does not have it. */
export const LACKS_ON_PURPOSE: Readonly<Record<string, string>> = {
  pip: 'installs from PyPI, which needs the internet (the tasks that call it download packages)',
  pip3: 'installs from PyPI, which needs the internet (the tasks that call it download packages)',
  'jupyter-lab':
    "JupyterLab is not packaged in Debian 12 and PyPI needs the internet; Spider2-V's VM starts it from its Anaconda env (GUI-OS's notebooks run in VS Code here)",
  conda: "Anaconda is not in Debian and needs the internet to install; Spider2-V's VM image has it in ~/anaconda3",
};

/** Whether the desktop image provides a program (a name as programOf in src/task/commands.ts gives it). */
export function desktopProvides(program: string): boolean {
  return Object.hasOwn(PROVIDED_COMMANDS, program);
}

/** Why the desktop lacks a program: the reason for one it lacks on purpose, else that no one added it. */
export function whyLacking(program: string): string {
  return Object.hasOwn(LACKS_ON_PURPOSE, program)
    ? LACKS_ON_PURPOSE[program]
    : `not in the desktop image's table of programs (src/desktop/provided-commands.ts)`;
}
