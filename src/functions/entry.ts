/**
 * The functions bundle's entry on the Excel page: configure the shared runtime from the user's stored
 * settings, then register the custom functions (custom-functions-metadata-plugin appends the
 * CustomFunctions.associate calls to functions.ts).
 */
import { bootstrapOfficeRuntime } from "../runtime/office";
import "./functions";

bootstrapOfficeRuntime();
