import type { fields as english } from "../en/fields.ts"

/** The question types as the builder names them, in German. */
export const fields: { readonly [K in keyof typeof english]: string } = {
  "fieldType.short_text": "Kurzer Text",
  "fieldType.long_text": "Langer Text",
  "fieldType.email": "E-Mail",
  "fieldType.tel": "Telefon",
  "fieldType.url": "Webadresse",
  "fieldType.number": "Zahl",
  "fieldType.date": "Datum",
  "fieldType.select": "Einfachauswahl",
  "fieldType.checkboxes": "Mehrfachauswahl",
  "fieldType.rating": "Bewertung",
  "fieldType.nps": "Net Promoter Score (0–10)",
  "fieldType.opinion_scale": "Meinungsskala",
  "fieldType.slider": "Schieberegler",
  "fieldType.time": "Uhrzeit",
  "fieldType.datetime": "Datum und Uhrzeit",
  "fieldType.yes_no": "Ja / Nein",
  "fieldType.legal": "Rechtliches (muss akzeptiert werden)",
  "fieldType.contact": "Kontaktdaten",
  "fieldType.address": "Adresse",
  "fieldType.matrix": "Matrix (Zeilen × Spalten)",
  "fieldType.ranking": "Rangfolge (in Reihenfolge bringen)",
  "fieldType.file": "Datei-Upload",
  "fieldType.signature": "Unterschrift (gezeichnet oder getippt)",
  "fieldType.currency": "Geldbetrag",
  "fieldType.statement": "Hinweis (keine Antwort)"
}
