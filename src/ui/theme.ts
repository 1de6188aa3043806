/**
 * Which of Fluent's two token sets a page uses. Inside Office: Office's own theme (`isDarkTheme` where the
 * host says it, else the darkness of its body background colour), so the pane matches the ribbon and the
 * grid around it. Outside Office (the preview page, a plain browser): the system's `prefers-color-scheme`.
 * Pure, so it is tested without a browser; fluent.ts applies the choice.
 */

export type ThemeKind = "light" | "dark";

/** The part of Office.context.officeTheme this reads (every member optional: hosts differ). */
export interface OfficeThemeLike {
  isDarkTheme?: boolean;
  bodyBackgroundColor?: string;
}

/** Relative luminance (WCAG 2) of a #rgb or #rrggbb colour; undefined for anything else. */
export function luminance(color: string): number | undefined {
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(full.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The theme for a page. A background darker than mid grey (luminance under 0.18, where white and black
 * text have equal contrast on it) is a dark theme: Office's "Dark Gray" (#666666-ish panes) and "Black"
 * themes are dark, "Colorful" and "White" are light.
 */
export function pageTheme(
  office: OfficeThemeLike | undefined,
  systemPrefersDark: boolean
): ThemeKind {
  if (office) {
    if (typeof office.isDarkTheme === "boolean") return office.isDarkTheme ? "dark" : "light";
    const lum = office.bodyBackgroundColor ? luminance(office.bodyBackgroundColor) : undefined;
    if (lum !== undefined) return lum < 0.18 ? "dark" : "light";
  }
  return systemPrefersDark ? "dark" : "light";
}
