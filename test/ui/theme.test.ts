/** Which token set a page uses: Office's theme inside Office, the system's colour scheme outside. */
import { luminance, pageTheme } from "../../src/ui/theme";

test("Office's isDarkTheme decides when the host gives it", () => {
  expect(pageTheme({ isDarkTheme: true, bodyBackgroundColor: "#ffffff" }, false)).toBe("dark");
  expect(pageTheme({ isDarkTheme: false }, true)).toBe("light");
});

test("else the darkness of Office's body background: Black and Dark Gray are dark, White and Colorful light", () => {
  expect(pageTheme({ bodyBackgroundColor: "#262626" }, false)).toBe("dark");
  expect(pageTheme({ bodyBackgroundColor: "#666666" }, false)).toBe("dark");
  expect(pageTheme({ bodyBackgroundColor: "#FFFFFF" }, true)).toBe("light");
  expect(pageTheme({ bodyBackgroundColor: "#e6e6e6" }, true)).toBe("light");
});

test("outside Office, or with a colour it cannot read, the system's scheme", () => {
  expect(pageTheme(undefined, true)).toBe("dark");
  expect(pageTheme(undefined, false)).toBe("light");
  expect(pageTheme({ bodyBackgroundColor: "rebeccapurple" }, true)).toBe("dark");
});

test("luminance follows WCAG's formula", () => {
  expect(luminance("#000")).toBe(0);
  expect(luminance("#ffffff")).toBeCloseTo(1, 6);
  expect(luminance("#777777")).toBeCloseTo(0.184, 3);
  expect(luminance("not a colour")).toBeUndefined();
});
