// A form generated from the scenario JSON Schema (scenarios/schema.json): one field per schema
// property, a kind selector for `oneOf` variants, lists for arrays of objects, and each
// protocol's own config schema picked by its `protocol`. Every field carries its JSON path
// (`topology.degree`, `protocols[1].config.fanout`) so an engine error can be shown beside it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  allOf?: { if?: Schema; then?: Schema }[];
  items?: Schema;
  enum?: string[];
  const?: string;
  default?: Json;
  description?: string;
  minimum?: number;
  $defs?: Record<string, Schema>;
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref`s into `$defs`. */
export function resolve(root: Schema, schema: Schema): Schema {
  let s = schema;
  for (let guard = 0; s.$ref && guard < 16; guard += 1) {
    const name = s.$ref.replace('#/$defs/', '');
    s = root.$defs?.[name] ?? {};
  }
  return s;
}

/** The variant of a `kind`-tagged oneOf that a value uses, by its `kind`. */
export function variantOf(schema: Schema, value: Json | undefined): Schema | undefined {
  const kind = isObject(value) ? value.kind : undefined;
  return schema.oneOf?.find((v) => v.properties?.kind?.const === kind);
}

/** The config schema of a protocol spec (its allOf if/then on `protocol`). */
export function protocolConfigSchema(root: Schema, spec: Schema, protocol: Json | undefined): Schema | undefined {
  const branch = spec.allOf?.find((b) => b.if?.properties?.protocol?.const === protocol);
  const config = branch?.then?.properties?.config;
  return config ? resolve(root, config) : undefined;
}

const types = (s: Schema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A starting value for a required field: its default, or an empty value of its type. */
export function initialValue(root: Schema, schema: Schema): Json {
  const s = resolve(root, schema);
  if (s.default !== undefined) return s.default;
  if (s.oneOf?.length) return initialValue(root, s.oneOf[0]);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const t = types(s);
  if (t.includes('object') || s.properties) {
    const out: JsonObject = {};
    for (const key of s.required ?? []) out[key] = initialValue(root, s.properties?.[key] ?? {});
    return out;
  }
  if (t.includes('array')) return [];
  if (t.includes('integer') || t.includes('number')) return s.minimum ?? 0;
  if (t.includes('boolean')) return false;
  if (t.includes('null')) return null;
  return '';
}

/** Path text for a child: `a.b`, `a[2]`. */
export const childPath = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

interface Context {
  root: Schema;
  /** Called after any edit with the whole new value. */
  changed: () => void;
  /** Re-renders the form (after an edit that changes its shape: a kind, an added item). */
  rebuild: () => void;
}

/**
 * A missing object or list is shown with its defaults but only written into the scenario when
 * something in it is edited: opening the form must not change the scenario.
 */
function attachOnEdit(ctx: Context, slot: Record<string | number, Json>, key: string | number, value: Json, present: boolean): Context {
  if (present) return ctx;
  return {
    ...ctx,
    changed: () => {
      slot[key] = value;
      ctx.changed();
    },
  };
}

function field(label: string, path: string, help: string | undefined, control: HTMLElement): HTMLElement {
  const wrap = document.createElement('label');
  wrap.className = 'field';
  wrap.dataset.path = path;
  const name = document.createElement('span');
  name.textContent = label;
  const error = document.createElement('span');
  error.className = 'field-error';
  wrap.append(name, control, error);
  if (help) wrap.title = help;
  return wrap;
}

function scalarInput(ctx: Context, schema: Schema, parent: JsonObject | Json[], key: string | number, path: string, label: string): HTMLElement {
  const value = (parent as Record<string | number, Json>)[key];
  const t = types(schema);
  const set = (v: Json | undefined) => {
    if (v === undefined) delete (parent as Record<string | number, Json>)[key];
    else (parent as Record<string | number, Json>)[key] = v;
    ctx.changed();
  };
  let control: HTMLInputElement | HTMLSelectElement;
  if (schema.enum) {
    const select = document.createElement('select');
    for (const option of schema.enum) select.add(new Option(option, option, false, option === value));
    select.addEventListener('change', () => {
      set(select.value);
      ctx.rebuild();
    });
    control = select;
  } else if (t.includes('boolean')) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = value === true;
    box.addEventListener('change', () => set(box.checked));
    control = box;
  } else if (t.includes('integer') || t.includes('number')) {
    const input = document.createElement('input');
    input.type = 'number';
    input.step = t.includes('integer') ? '1' : 'any';
    input.value = typeof value === 'number' ? String(value) : '';
    input.placeholder = schema.default === null ? 'default' : '';
    input.addEventListener('input', () => {
      const text = input.value.trim();
      if (text === '') set(t.includes('null') || schema.default !== undefined ? undefined : 0);
      else set(Number(text));
    });
    control = input;
  } else {
    const input = document.createElement('input');
    input.type = 'text';
    input.value = typeof value === 'string' ? value : '';
    input.addEventListener('input', () => set(input.value === '' && t.includes('null') ? undefined : input.value));
    control = input;
  }
  control.dataset.path = path;
  return field(label, path, schema.description, control);
}

function jsonInput(ctx: Context, parent: JsonObject | Json[], key: string | number, path: string, label: string, help?: string): HTMLElement {
  const area = document.createElement('textarea');
  area.rows = 2;
  area.value = JSON.stringify((parent as Record<string | number, Json>)[key] ?? null);
  area.dataset.path = path;
  area.addEventListener('change', () => {
    try {
      (parent as Record<string | number, Json>)[key] = JSON.parse(area.value) as Json;
      area.classList.remove('invalid');
      ctx.changed();
    } catch {
      area.classList.add('invalid');
    }
  });
  return field(label, path, help ?? 'JSON', area);
}

function objectFields(ctx: Context, schema: Schema, value: JsonObject, path: string, skip: string[] = []): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (skip.includes(key)) continue;
    out.push(node(ctx, prop, value, key, childPath(path, key), key));
  }
  return out;
}

function group(title: string, path: string, children: HTMLElement[], help?: string): HTMLElement {
  const set = document.createElement('fieldset');
  set.className = 'group';
  set.dataset.path = path;
  const legend = document.createElement('legend');
  legend.textContent = title;
  if (help) set.title = help;
  const error = document.createElement('span');
  error.className = 'field-error';
  set.append(legend, error, ...children);
  return set;
}

function node(ctx: Context, raw: Schema, parent: JsonObject | Json[], key: string | number, path: string, label: string): HTMLElement {
  const schema = resolve(ctx.root, raw);
  const slot = parent as Record<string | number, Json>;
  if (schema.oneOf?.every((v) => v.properties?.kind?.const)) {
    const present = isObject(slot[key]) && variantOf(schema, slot[key]) !== undefined;
    const value = present ? (slot[key] as JsonObject) : (initialValue(ctx.root, schema.oneOf[0]) as JsonObject);
    ctx = attachOnEdit(ctx, slot, key, value, present);
    const variant = variantOf(schema, value)!;
    const kinds = schema.oneOf.map((v) => v.properties!.kind!.const!);
    const select = document.createElement('select');
    for (const k of kinds) select.add(new Option(k, k, false, k === value.kind));
    select.dataset.path = childPath(path, 'kind');
    select.addEventListener('change', () => {
      const next = initialValue(ctx.root, schema.oneOf!.find((v) => v.properties?.kind?.const === select.value)!) as JsonObject;
      slot[key] = next;
      ctx.changed();
      ctx.rebuild();
    });
    return group(label, path, [field('kind', childPath(path, 'kind'), variant.description, select), ...objectFields(ctx, variant, value, path, ['kind'])], variant.description);
  }
  const t = types(schema);
  if (schema.properties && (t.includes('object') || t.length === 0)) {
    const present = isObject(slot[key]);
    const value = present ? (slot[key] as JsonObject) : (initialValue(ctx.root, schema) as JsonObject);
    ctx = attachOnEdit(ctx, slot, key, value, present);
    const children = objectFields(ctx, schema, value, path, ['config']);
    if ('config' in (schema.properties ?? {})) {
      const configSchema = protocolConfigSchema(ctx.root, schema, value.protocol);
      const hasConfig = isObject(value.config);
      const config = hasConfig ? (value.config as JsonObject) : {};
      const configCtx = attachOnEdit(ctx, value, 'config', config, hasConfig);
      children.push(configSchema?.properties ? group('config', childPath(path, 'config'), objectFields(configCtx, configSchema, config, childPath(path, 'config'))) : jsonInput(ctx, value, 'config', childPath(path, 'config'), 'config'));
    }
    return group(label, path, children, schema.description);
  }
  if (t.includes('array') && schema.items && resolve(ctx.root, schema.items).properties) {
    const present = Array.isArray(slot[key]);
    const list = present ? (slot[key] as Json[]) : [];
    ctx = attachOnEdit(ctx, slot, key, list, present);
    const children = list.map((_, i) => {
      const item = node(ctx, schema.items!, list, i, childPath(path, i), `${label} ${i}`);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'remove';
      remove.addEventListener('click', () => {
        list.splice(i, 1);
        ctx.changed();
        ctx.rebuild();
      });
      item.append(remove);
      return item;
    });
    const add = document.createElement('button');
    add.type = 'button';
    add.textContent = `add ${label}`;
    add.addEventListener('click', () => {
      list.push(initialValue(ctx.root, schema.items!));
      ctx.changed();
      ctx.rebuild();
    });
    return group(label, path, [...children, add], schema.description);
  }
  if (t.includes('array') || t.includes('object') || (t.length === 0 && !schema.enum)) return jsonInput(ctx, parent, key, path, label, schema.description);
  return scalarInput(ctx, schema, parent, key, path, label);
}

/**
 * Renders the form for `value` (edited in place) into `container`. `onChange` gets the whole
 * value after each edit.
 */
export function renderForm(container: HTMLElement, root: Schema, value: JsonObject, onChange: (value: JsonObject) => void): void {
  const holder: JsonObject = { scenario: value };
  const ctx: Context = {
    root,
    changed: () => onChange(holder.scenario as JsonObject),
    rebuild: () => renderForm(container, root, holder.scenario as JsonObject, onChange),
  };
  // The scenario's fields in reading order (the schema lists them alphabetically).
  const order = ['name', 'description', 'seed', 'nodes', 'topology', 'latency', 'links', 'bandwidth', 'workload', 'drain_ms', 'processing_delay_ms', 'adversaries', 'protocols'];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const sorted: Schema = { ...root, properties: Object.fromEntries(Object.entries(root.properties ?? {}).sort(([a], [b]) => rank(a) - rank(b))) };
  const fields = objectFields(ctx, sorted, value, '');
  container.replaceChildren(...fields);
}

/** Shows an engine error (`at \`path\`: message`) beside its field; returns whether one matched. */
export function showFieldError(container: HTMLElement, message: string): boolean {
  for (const e of container.querySelectorAll('.field-error')) e.textContent = '';
  for (const e of container.querySelectorAll('.has-error')) e.classList.remove('has-error');
  const path = /at `([^`]+)`/.exec(message)?.[1];
  if (!path) return false;
  // The field itself, or the nearest group above it (e.g. an unknown key inside an object).
  for (let p = path; p; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const target = container.querySelector<HTMLElement>(`[data-path="${CSS.escape(p)}"]`);
    if (target) {
      target.classList.add('has-error');
      const slot = target.querySelector(':scope > .field-error');
      if (slot) slot.textContent = message.replace(/^at `[^`]+`: /, '');
      return true;
    }
    if (!/[.[]/.test(p)) break;
  }
  return false;
}
