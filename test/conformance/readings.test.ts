/**
 * The readings matrix, part 1: the corpus under the default readings, then under its share of the rows
 * of the pairwise covering array (test/conformance/readings-matrix.ts says what is compared and why the rows
 * are split over files).
 */
import { readingsMatrix } from "./readings-matrix";

readingsMatrix(1);
