// The accessibility tree in OSWorld's XML shape, read over the AT-SPI D-Bus interfaces with pipelined calls.
//
// Shape (what OSWorld's server builds with pyatspi + lxml): tag = role name with spaces as '-', attribute `name`,
// `st:<state>="true"`, `attr:<key>`, `cp:screencoord`/`cp:size` when visible and showing, `image`/`selection`,
// `val:value/min/max/step`, `act:<action>_desc/_kb`; element text = the node's text without U+FFFC/U+FFFD.
//
// Bounds: LibreOffice Calc's sheet reports 2^31 cells (an unbounded walk grew soffice to 13 GB), so children per
// node, depth, total nodes and wall time are capped, and a Calc sheet table yields only the cells on screen.
// Speed: pyatspi makes ~10 blocking round trips per node (2 ms a node for LibreOffice); here a few hundred calls are
// in flight at once.
import { DBusConnection, type DBusValue } from './dbus.ts';
import { ROLE_NAMES, STATE_NAMES } from './atspi-names.ts';

const A11Y_LIMITS = {
  maxNodes: Number(process.env.DESKBENCH_A11Y_MAX_NODES ?? 10_000),
  maxChildren: Number(process.env.DESKBENCH_A11Y_MAX_CHILDREN ?? 1024),
  maxCells: Number(process.env.DESKBENCH_A11Y_MAX_CELLS ?? 4096),
  maxDepth: Number(process.env.DESKBENCH_A11Y_MAX_DEPTH ?? 50),
  timeLimitMs: Number(process.env.DESKBENCH_A11Y_TIME_LIMIT_MS ?? 10_000),
};

const NS: Record<string, string> = {
  st: 'https://accessibility.ubuntu.example.org/ns/state',
  attr: 'https://accessibility.ubuntu.example.org/ns/attributes',
  cp: 'https://accessibility.ubuntu.example.org/ns/component',
  doc: 'https://accessibility.ubuntu.example.org/ns/document',
  docattr: 'https://accessibility.ubuntu.example.org/ns/document/attributes',
  txt: 'https://accessibility.ubuntu.example.org/ns/text',
  val: 'https://accessibility.ubuntu.example.org/ns/value',
  act: 'https://accessibility.ubuntu.example.org/ns/action',
};

const A = 'org.a11y.atspi.';
const PROPS = 'org.freedesktop.DBus.Properties';
const NULL_PATH = '/org/a11y/atspi/null';
const CALL_TIMEOUT_MS = 3_000;
const MAX_IN_FLIGHT = 256;

// --- connection to the accessibility bus ---------------------------------------------------------------------------

let busConnection: Promise<DBusConnection> | undefined;

async function connectA11yBus(): Promise<DBusConnection> {
  const sessionAddress = process.env.DBUS_SESSION_BUS_ADDRESS ?? 'unix:path=/run/user/1000/bus';
  const session = await DBusConnection.connect(sessionAddress);
  try {
    const [address] = await session.call('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress');
    return await DBusConnection.connect(String(address));
  } finally {
    session.close();
  }
}

function a11yBus(): Promise<DBusConnection> {
  busConnection ??= connectA11yBus().catch((error: unknown) => {
    busConnection = undefined;
    throw error;
  });
  return busConnection;
}

// --- the walk ------------------------------------------------------------------------------------------------------

interface Node {
  bus: string;
  path: string;
  depth: number;
  calc: boolean;
  done: boolean;
  name: string;
  childCount: number;
  role: string;
  states: string[];
  attributes: Record<string, string>;
  interfaces: Set<string>;
  extents?: number[];
  text?: string;
  value?: Record<string, DBusValue>;
  actions: string[][];
  children: Node[];
}

function newNode(bus: string, path: string, depth: number, calc: boolean): Node {
  return {
    bus, path, depth, calc, done: false, name: '', childCount: 0, role: '', states: [], attributes: {},
    interfaces: new Set(), actions: [], children: [],
  };
}

interface WalkOptions {
  /** Only applications with this name are walked (the /terminal endpoint). */
  appFilter?: string;
  /** Wall time of this walk (default A11Y_LIMITS.timeLimitMs). */
  timeLimitMs?: number;
}

class Walker {
  count = 0;
  truncated = false;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly deadline: number;
  private readonly bus: DBusConnection;
  private readonly options: WalkOptions;

  constructor(bus: DBusConnection, options: WalkOptions) {
    this.bus = bus;
    this.options = options;
    this.deadline = Date.now() + (options.timeLimitMs ?? A11Y_LIMITS.timeLimitMs);
  }

  /** A D-Bus call on a node with at most MAX_IN_FLIGHT outstanding; undefined when it fails. */
  private async call(node: { bus: string; path: string }, iface: string, member: string, sig = '', args: DBusValue[] = []) {
    if (this.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await this.bus.call(node.bus, node.path, iface, member, sig, args, CALL_TIMEOUT_MS);
    } catch {
      return undefined;
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private exhausted(): boolean {
    if (this.count >= A11Y_LIMITS.maxNodes || Date.now() > this.deadline) {
      this.truncated = true;
      return true;
    }
    return false;
  }

  async visit(node: Node): Promise<void> {
    if (this.exhausted()) return;
    this.count++;
    // Properties one by one, never GetAll: Chromium aborts on a malformed a{sv} answer to GetAll (seen with 156).
    const [name, count, role, state, attributes, interfaces] = await Promise.all([
      this.call(node, PROPS, 'Get', 'ss', [A + 'Accessible', 'Name']),
      this.call(node, PROPS, 'Get', 'ss', [A + 'Accessible', 'ChildCount']),
      this.call(node, A + 'Accessible', 'GetRole'),
      this.call(node, A + 'Accessible', 'GetState'),
      this.call(node, A + 'Accessible', 'GetAttributes'),
      this.call(node, A + 'Accessible', 'GetInterfaces'),
    ]);
    if (!role || !count) return;
    node.name = String(name?.[0] ?? '');
    node.childCount = Number(count[0]);
    if (this.options.appFilter && node.depth === 1 && node.name !== this.options.appFilter) return;
    node.role = ROLE_NAMES[role[0] as number] ?? '';
    const words = (state?.[0] as number[] | undefined) ?? [];
    words.forEach((word, w) => {
      for (let bit = 0; bit < 32; bit++) {
        const name = STATE_NAMES[w * 32 + bit];
        if (name && (word >>> bit) & 1) node.states.push(name);
      }
    });
    node.attributes = (attributes?.[0] as Record<string, string> | undefined) ?? {};
    for (const name of (interfaces?.[0] as string[] | undefined) ?? []) {
      node.interfaces.add(name.startsWith(A) ? name.slice(A.length) : name);
    }
    if (node.role === 'document spreadsheet') node.calc = true;

    const units: Promise<void>[] = [];
    if (node.states.includes('visible') && node.states.includes('showing') && node.interfaces.has('Component')) {
      units.push(this.call(node, A + 'Component', 'GetExtents', 'u', [0]).then((v) => void (node.extents = v?.[0] as number[])));
    }
    if (node.interfaces.has('Text')) {
      units.push(
        this.call(node, PROPS, 'Get', 'ss', [A + 'Text', 'CharacterCount']).then(async (count) => {
          if (!count) return;
          const text = await this.call(node, A + 'Text', 'GetText', 'ii', [0, Number(count[0])]);
          if (text) node.text = String(text[0]);
        }),
      );
    }
    if (node.interfaces.has('Value')) {
      const value: Record<string, DBusValue> = {};
      node.value = value;
      for (const prop of ['CurrentValue', 'MinimumValue', 'MaximumValue', 'MinimumIncrement']) {
        units.push(this.call(node, PROPS, 'Get', 'ss', [A + 'Value', prop]).then((v) => void (v && (value[prop] = v[0]))));
      }
    }
    if (node.interfaces.has('Action')) {
      units.push(this.call(node, A + 'Action', 'GetActions').then((v) => void (node.actions = (v?.[0] as string[][]) ?? [])));
    }
    if (node.depth < A11Y_LIMITS.maxDepth && node.childCount > 0) {
      units.push(node.calc && node.role === 'table' ? this.showingCells(node) : this.children(node));
    }
    await Promise.all(units);
    node.done = true;
    await Promise.all(node.children.map((child) => this.visit(child)));
  }

  private addChild(node: Node, ref: DBusValue | undefined): void {
    const [bus, path] = (ref as string[] | undefined) ?? [];
    if (bus && path && path !== NULL_PATH) node.children.push(newNode(bus, path, node.depth + 1, node.calc));
  }

  private async children(node: Node): Promise<void> {
    if (node.childCount <= A11Y_LIMITS.maxChildren) {
      const all = await this.call(node, A + 'Accessible', 'GetChildren');
      for (const ref of (all?.[0] as DBusValue[] | undefined) ?? []) this.addChild(node, ref);
      return;
    }
    this.truncated = true;
    const refs = await Promise.all(
      Array.from({ length: A11Y_LIMITS.maxChildren }, (_, i) => this.call(node, A + 'Accessible', 'GetChildAtIndex', 'i', [i])),
    );
    for (const ref of refs) this.addChild(node, ref?.[0]);
  }

  /** Calc sheet: the cells at the table's visible corners give the row and column range; only those are read. */
  private async showingCells(node: Node): Promise<void> {
    const [columns, extents] = await Promise.all([
      this.call(node, PROPS, 'Get', 'ss', [A + 'Table', 'NColumns']),
      this.call(node, A + 'Component', 'GetExtents', 'u', [0]),
    ]);
    if (!columns || !extents) return;
    const ncols = Number(columns[0]);
    const [x, y, w, h] = extents[0] as number[];
    if (w <= 0 || h <= 0 || ncols <= 0) return;
    const corners = await Promise.all(
      [[x + 1, y + 1], [x + w - 2, y + h - 2]].map(async ([px, py]) => {
        const cell = await this.call(node, A + 'Component', 'GetAccessibleAtPoint', 'iiu', [px, py, 0]);
        const [bus, path] = (cell?.[0] as string[] | undefined) ?? [];
        if (!bus || !path || path === NULL_PATH) return undefined;
        const index = await this.call({ bus, path }, A + 'Accessible', 'GetIndexInParent');
        return index ? Number(index[0]) : undefined;
      }),
    );
    if (corners[0] === undefined || corners[1] === undefined) return;
    const [r0, c0] = [Math.floor(corners[0] / ncols), corners[0] % ncols];
    const [r1, c1] = [Math.floor(corners[1] / ncols), corners[1] % ncols];
    const indexes: number[] = [];
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) indexes.push(r * ncols + c);
    if (indexes.length > A11Y_LIMITS.maxCells) {
      this.truncated = true;
      indexes.length = A11Y_LIMITS.maxCells;
    }
    const refs = await Promise.all(indexes.map((i) => this.call(node, A + 'Accessible', 'GetChildAtIndex', 'i', [i])));
    for (const ref of refs) this.addChild(node, ref?.[0]);
  }
}

async function walk(options: WalkOptions): Promise<{ root: Node; walker: Walker }> {
  let bus: DBusConnection;
  try {
    bus = await a11yBus();
  } catch (error) {
    throw new Error(`cannot reach the accessibility bus: ${(error as Error).message}`);
  }
  const walker = new Walker(bus, options);
  const root = newNode('org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root', 0, false);
  // Whatever is still in flight a second after the time limit is left out, and the tree is then reported truncated:
  // on a loaded machine the calls begun before the deadline are what outlast it (seen with LibreOffice Impress).
  let timer: NodeJS.Timeout | undefined;
  const limitMs = options.timeLimitMs ?? A11Y_LIMITS.timeLimitMs;
  const hardStop = new Promise<'stopped'>((resolve) => (timer = setTimeout(() => resolve('stopped'), limitMs + 1_000)));
  if ((await Promise.race([walker.visit(root), hardStop])) === 'stopped') walker.truncated = true;
  clearTimeout(timer);
  return { root, walker };
}

// --- XML -----------------------------------------------------------------------------------------------------------

// Characters XML 1.0 forbids; apps do put them in names and texts.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeAttribute(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function escapeText(text: string): string {
  return text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function xmlName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_.-]/g, '-');
  return /^[A-Za-z_]/.test(clean) ? clean : `_${clean}`;
}

/** Python's str(float) for the val: attributes (1.0, 0.5, 1e+100, inf). */
function pythonFloat(value: DBusValue): string {
  const n = Number(value);
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf';
  const text = String(n);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function attributesOf(node: Node): [string, string][] {
  const out: [string, string][] = [['name', node.name]];
  for (const state of node.states) out.push([`st:${state}`, 'true']);
  for (const [key, value] of Object.entries(node.attributes)) if (key) out.push([`attr:${xmlName(key)}`, String(value)]);
  if (node.extents) {
    out.push(['cp:screencoord', `(${node.extents[0]}, ${node.extents[1]})`]);
    out.push(['cp:size', `(${node.extents[2]}, ${node.extents[3]})`]);
  }
  if (node.interfaces.has('Image')) out.push(['image', 'true']);
  if (node.interfaces.has('Selection')) out.push(['selection', 'true']);
  if (node.value) {
    const props: [string, string][] = [['value', 'CurrentValue'], ['min', 'MinimumValue'], ['max', 'MaximumValue'], ['step', 'MinimumIncrement']];
    for (const [key, prop] of props) if (prop in node.value) out.push([`val:${key}`, pythonFloat(node.value[prop])]);
  }
  for (const [name, description, keybinding] of node.actions) {
    const key = xmlName(String(name).replace(/ /g, '-'));
    out.push([`act:${key}_desc`, String(description ?? '')]);
    out.push([`act:${key}_kb`, String(keybinding ?? '')]);
  }
  return out;
}

function serialize(node: Node, parts: string[], root: boolean): void {
  const tag = xmlName((node.role.trim() || 'unknown').replace(/ /g, '-'));
  parts.push('<', tag);
  if (root) for (const [prefix, uri] of Object.entries(NS)) parts.push(` xmlns:${prefix}="${uri}"`);
  // Later duplicates (an attribute key that maps to an existing name) win, as in a Python dict.
  const attributes = new Map(attributesOf(node));
  for (const [key, value] of attributes) parts.push(' ', key, '="', escapeAttribute(value), '"');
  const text = (node.text ?? '').replace(/[\ufffc\ufffd]/g, '');
  const children = node.children.filter((child) => child.done);
  if (!text && children.length === 0) {
    parts.push('/>');
    return;
  }
  parts.push('>', escapeText(text));
  for (const child of children) serialize(child, parts, false);
  parts.push('</', tag, '>');
}

export interface TreeResult {
  xml: string;
  nodes: number;
  truncated: boolean;
}

/** The whole desktop's tree; `timeLimitMs` replaces the default wall-time bound for this walk. */
export async function accessibilityTree(options: { timeLimitMs?: number } = {}): Promise<TreeResult> {
  const { root, walker } = await walk({ timeLimitMs: options.timeLimitMs });
  const parts: string[] = [];
  serialize(root, parts, true);
  return { xml: parts.join(''), nodes: walker.count, truncated: walker.truncated };
}

/** OSWorld's /terminal: the text of the focused terminal in the active gnome-terminal frame, right-stripped. */
export async function terminalOutput(): Promise<string | null> {
  const { root } = await walk({ appFilter: 'gnome-terminal-server' });
  let output: string | null = null;
  for (const app of root.children.filter((n) => n.done && n.role === 'application' && n.name === 'gnome-terminal-server')) {
    for (const frame of app.children.filter((n) => n.done && n.role === 'frame' && n.states.includes('active'))) {
      const focused: Node[] = [];
      const collect = (n: Node) => {
        if (n.role === 'terminal' && n.states.includes('focused')) focused.push(n);
        n.children.filter((c) => c.done).forEach(collect);
      };
      frame.children.filter((c) => c.done).forEach(collect);
      output = focused.length === 1 ? (focused[0].text ?? '').replace(/[\ufffc\ufffd]/g, '').trimEnd() : null;
    }
  }
  return output;
}
