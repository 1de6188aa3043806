/**
 * Entity values (Excel's data types: a cell that is a card), as the host outside Excel sees them: plain JSON
 * of `Excel.EntityCellValue`'s shape, checked the way Excel would take them, and read field by field as
 * `FIELDVALUE(A1,"Symbol")` and `=A1.Symbol` read them.
 *
 * The validator states what Excel needs of an entity and, where Excel is silent, what we promise:
 * - `referencedValues` only on the root entity (a nested one makes Excel show #VALUE! without any error);
 * - every property a card layout names (section properties, title and subtitle references) exists;
 * - no `undefined` anywhere (JSON would drop it silently; Excel's own JSON never has one);
 * - every number finite (JSON cannot carry NaN or infinities, Excel cannot show them);
 * - each property is a cell value of a known type whose basic value has the type's JS type.
 * Office-free: the sheet model runs in plain Node and in any page.
 */

export type EntityJson = Readonly<Record<string, unknown>>;

/** Where entity values nest: deep enough for any card, shallow enough that a hostile value cannot hurt. */
const MAX_DEPTH = 32;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isEntity(value: unknown): value is EntityJson {
  return isRecord(value) && value.type === "Entity";
}

/** The text a cell holding the entity shows. */
export function entityText(entity: EntityJson): string {
  return typeof entity.text === "string" ? entity.text : "";
}

const NUMBER_TYPES = new Set(["Double", "FormattedNumber"]);
const KNOWN_TYPES = new Set([
  "Array",
  "Boolean",
  "Double",
  "Entity",
  "Empty",
  "Error",
  "FormattedNumber",
  "String",
  "WebImage",
]);

function name(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

class Checker {
  readonly problems: string[] = [];

  private fail(path: string, what: string): void {
    // One hostile value could produce millions of problems; the first few say enough.
    if (this.problems.length < 50) this.problems.push(`${path}: ${what}`);
  }

  /** No undefined, finite numbers, bounded depth: over the whole tree, whatever its shape. */
  plain(value: unknown, path: string, depth: number): void {
    if (depth > MAX_DEPTH) return this.fail(path, `nested deeper than ${MAX_DEPTH} levels`);
    if (value === undefined) return this.fail(path, "undefined");
    if (typeof value === "number") {
      if (!Number.isFinite(value)) this.fail(path, `${value} is not a finite number`);
      return;
    }
    if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint")
      return this.fail(path, `a ${typeof value} is not JSON`);
    if (Array.isArray(value)) {
      value.forEach((item, i) => this.plain(item, `${path}[${i}]`, depth + 1));
      return;
    }
    if (isRecord(value)) {
      for (const key of Object.keys(value)) this.plain(value[key], name(path, key), depth + 1);
    }
  }

  entity(entity: Record<string, unknown>, path: string, root: boolean, depth: number): void {
    if (depth > MAX_DEPTH) return this.fail(path, `nested deeper than ${MAX_DEPTH} levels`);
    if (!root && "referencedValues" in entity) {
      this.fail(path, "referencedValues is allowed on the root entity only (Excel shows #VALUE!)");
    }
    if (entity.text !== undefined && typeof entity.text !== "string")
      this.fail(`${path}.text`, "must be text");
    const properties = entity.properties ?? {};
    if (!isRecord(properties)) {
      this.fail(`${path}.properties`, "must be an object");
      return;
    }
    for (const key of Object.keys(properties)) {
      this.cellValue(properties[key], name(`${path}.properties`, key), depth + 1);
    }
    this.layouts(entity.layouts, properties, `${path}.layouts`);
  }

  private layouts(layouts: unknown, properties: Record<string, unknown>, path: string): void {
    if (layouts === undefined) return;
    if (!isRecord(layouts)) return this.fail(path, "must be an object");
    const card = layouts.card;
    if (card === undefined) return;
    if (!isRecord(card)) return this.fail(`${path}.card`, "must be an object");
    const exists = (property: unknown, where: string): void => {
      if (typeof property !== "string") return this.fail(where, "must name a property");
      if (!Object.prototype.hasOwnProperty.call(properties, property))
        this.fail(where, `names "${property}", which is not a property`);
    };
    for (const ref of ["title", "subTitle", "mainImage"] as const) {
      const value = card[ref];
      if (isRecord(value)) exists(value.property, `${path}.card.${ref}.property`);
      else if (value !== undefined && (ref !== "title" || typeof value !== "string"))
        this.fail(`${path}.card.${ref}`, "must be a property reference");
    }
    const sections = card.sections ?? [];
    if (!Array.isArray(sections)) return this.fail(`${path}.card.sections`, "must be a list");
    sections.forEach((section: unknown, i) => {
      const at = `${path}.card.sections[${i}]`;
      if (!isRecord(section)) return this.fail(at, "must be an object");
      if (!["List", "Table", "TwoColumn"].includes(String(section.layout)))
        this.fail(`${at}.layout`, `unknown layout ${JSON.stringify(section.layout)}`);
      if (!Array.isArray(section.properties) || section.properties.length === 0)
        return this.fail(`${at}.properties`, "must list at least one property");
      section.properties.forEach((p: unknown, j) => exists(p, `${at}.properties[${j}]`));
    });
  }

  private cellValue(value: unknown, path: string, depth: number): void {
    if (!isRecord(value)) return this.fail(path, "must be a cell value object");
    const type = value.type;
    if (typeof type !== "string" || !KNOWN_TYPES.has(type)) {
      return this.fail(`${path}.type`, `unknown cell value type ${JSON.stringify(type)}`);
    }
    const basic = value.basicValue;
    if (NUMBER_TYPES.has(type) && typeof basic !== "number")
      this.fail(`${path}.basicValue`, `${type} needs a number`);
    if (type === "FormattedNumber" && typeof value.numberFormat !== "string")
      this.fail(`${path}.numberFormat`, "FormattedNumber needs a number format");
    if (type === "String" && typeof basic !== "string")
      this.fail(`${path}.basicValue`, "String needs text");
    if (type === "Boolean" && typeof basic !== "boolean")
      this.fail(`${path}.basicValue`, "Boolean needs TRUE or FALSE");
    if (type === "Entity") this.entity(value, path, false, depth);
    if (type === "Array") this.array(value.elements, `${path}.elements`, depth);
  }

  private array(elements: unknown, path: string, depth: number): void {
    if (!Array.isArray(elements) || elements.length === 0 || !elements.every(Array.isArray))
      return this.fail(path, "must be a non-empty list of rows");
    const rows = elements as unknown[][];
    const width = rows[0].length;
    if (width === 0 || rows.some((r) => r.length !== width))
      return this.fail(path, "rows must be non-empty and of one length");
    rows.forEach((row, r) =>
      row.forEach((cell, c) => this.cellValue(cell, `${path}[${r}][${c}]`, depth + 1))
    );
  }
}

/** What is wrong with an entity value, as "path: problem" lines; empty when Excel would take it. */
export function validateEntity(value: unknown): string[] {
  const checker = new Checker();
  if (!isEntity(value)) return ['$: not an entity (type must be "Entity")'];
  checker.plain(value, "$", 0);
  checker.entity(value, "$", true, 0);
  return checker.problems;
}

/**
 * A field of an entity by name, as Excel's dot notation and FIELDVALUE find it: case-insensitively, and
 * never a property excluded from dot notation. Undefined when there is none.
 */
export function entityField(entity: EntityJson, field: string): unknown {
  const properties = entity.properties;
  if (!isRecord(properties)) return undefined;
  const wanted = field.trim().toLowerCase();
  for (const key of Object.keys(properties)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = properties[key];
    const excluded =
      isRecord(value) && isRecord(value.propertyMetadata)
        ? value.propertyMetadata.excludeFrom
        : undefined;
    if (isRecord(excluded) && excluded.dotNotation === true) return undefined;
    return value;
  }
  return undefined;
}

/** The fields dot notation can read, in the entity's order (for "did you mean" messages). */
export function entityFieldNames(entity: EntityJson): string[] {
  const properties = entity.properties;
  if (!isRecord(properties)) return [];
  return Object.keys(properties).filter((key) => {
    const value = properties[key];
    const excluded =
      isRecord(value) && isRecord(value.propertyMetadata)
        ? value.propertyMetadata.excludeFrom
        : undefined;
    return !(isRecord(excluded) && excluded.dotNotation === true);
  });
}
