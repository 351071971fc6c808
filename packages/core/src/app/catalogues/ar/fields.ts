import type { fields as english } from "../en/fields.ts"

/** The question types as the builder names them, in Arabic. */
export const fields: { readonly [K in keyof typeof english]: string } = {
  "fieldType.short_text": "نص قصير",
  "fieldType.long_text": "نص طويل",
  "fieldType.email": "البريد الإلكتروني",
  "fieldType.tel": "الهاتف",
  "fieldType.url": "عنوان ويب",
  "fieldType.number": "رقم",
  "fieldType.date": "تاريخ",
  "fieldType.select": "اختيار واحد",
  "fieldType.checkboxes": "اختيارات متعددة",
  "fieldType.rating": "تقييم",
  "fieldType.nps": "صافي نقاط الترويج (0–10)",
  "fieldType.opinion_scale": "مقياس الرأي",
  "fieldType.slider": "شريط تمرير",
  "fieldType.time": "الوقت",
  "fieldType.datetime": "التاريخ والوقت",
  "fieldType.yes_no": "نعم / لا",
  "fieldType.legal": "قانوني (يجب قبوله)",
  "fieldType.contact": "بيانات الاتصال",
  "fieldType.address": "العنوان",
  "fieldType.matrix": "مصفوفة (صفوف × أعمدة)",
  "fieldType.ranking": "ترتيب (ضع بالترتيب)",
  "fieldType.file": "رفع ملف",
  "fieldType.signature": "توقيع (مرسوم أو مكتوب)",
  "fieldType.currency": "مبلغ مالي",
  "fieldType.statement": "بيان (بلا إجابة)"
}
