// What every trainer's tool declaration means (a JSON Schema "object" of named, typed parameters), checked against a
// call's arguments. Written from the JSON Schema types the trainers' docs name, not from our writer.
export type Problems = string[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function typeOk(v: unknown, t: string): boolean {
  switch (t) {
    case "string":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return isObject(v);
    case "null":
      return v === null;
    default:
      return true;
  }
}

/** A function declaration `{name, description?, parameters}` is well-formed: parameters is a JSON Schema object. */
export function checkDeclaration(f: unknown, where: string, out: Problems): string | null {
  if (!isObject(f) || typeof f.name !== "string" || !f.name) return (void out.push(`${where}: a tool needs a name`), null);
  if (f.description !== undefined && typeof f.description !== "string") out.push(`${where}: description must be a string`);
  if (!isObject(f.parameters) || f.parameters.type !== "object")
    out.push(`${where}: parameters must be a JSON Schema object ({"type": "object", …})`);
  return f.name;
}

/** The arguments of a call fit the declared parameters: required ones present, declared ones of their type. */
export function checkArguments(args: unknown, decl: Record<string, unknown> | undefined, where: string, out: Problems): void {
  if (!isObject(args)) return void out.push(`${where}: arguments must be a JSON object`);
  if (!decl) return void out.push(`${where}: calls a tool not declared in tools`);
  const params = isObject(decl.parameters) ? decl.parameters : {};
  const props = isObject(params.properties) ? params.properties : {};
  for (const r of Array.isArray(params.required) ? params.required : [])
    if (!(String(r) in args)) out.push(`${where}: required argument ${String(r)} missing`);
  for (const [k, v] of Object.entries(args)) {
    const p = props[k];
    if (!isObject(p) || p.type === undefined) continue;
    const types = Array.isArray(p.type) ? (p.type as string[]) : [String(p.type)];
    if (!types.some((t) => typeOk(v, t))) out.push(`${where}: argument ${k} is not of its declared type ${types.join("|")}`);
  }
}

export { isObject };

/** Terminal escape bytes in any string of a row, keys included (an ESC or a C1 CSI). */
export function hasEscape(v: unknown): boolean {
  if (typeof v === "string") return /[\u001b\u009b]/.test(v);
  if (Array.isArray(v)) return v.some(hasEscape);
  if (isObject(v)) return Object.entries(v).some(([k, x]) => hasEscape(k) || hasEscape(x));
  return false;
}
