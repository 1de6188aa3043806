// Stand-in for office-addin-manifest inside jest: office-addin-mock only reads this enum from it.
export enum OfficeApp {
  Excel = "excel",
  OneNote = "onenote",
  Outlook = "outlook",
  PowerPoint = "powerpoint",
  Project = "project",
  Word = "word",
}
