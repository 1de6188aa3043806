/** The "as of" note that Freeze to values leaves on the first frozen cell. */
import { formatInstant } from "./diagnostics-model";

export function freezeNote(at: number, simulated: boolean): string {
  return (
    `Cryptometrics values as of ${formatInstant(at)}: the CRYPTO formulas here were replaced by their` +
    ` values (Freeze to values) and no longer update.${simulated ? " Demo data — not real figures." : ""}`
  );
}
