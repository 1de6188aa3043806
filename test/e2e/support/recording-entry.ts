/**
 * Runs in the page before its own scripts (openPage adds it as an init script): a page opened with
 * `?workbook=recording` gets a recording workbook, which the taskpane takes as its workbook outside Excel,
 * and the test reads it back as window.__recordingWorkbook. Built on its own (recording-bundle.ts): the
 * recording workbook is a test double and ships in no production bundle.
 */
import { RecordingWorkbook } from "../../support/recording-workbook";

if (new URLSearchParams(window.location.search).get("workbook") === "recording") {
  const recording = new RecordingWorkbook();
  window.__recordingWorkbook = recording;
  window.__cryptometricsWorkbook = recording;
}
