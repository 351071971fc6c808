import type { auth as english } from "../en/auth.ts"

/** The sign-in pages and the password reset e-mail in Arabic (Modern Standard Arabic). */
export const auth: { readonly [K in keyof typeof english]: string } = {
  // Sign-in
  "auth.signInTitle": "تسجيل الدخول · qforms",
  "auth.signInHeading": "تسجيل الدخول إلى qforms",
  "auth.email": "البريد الإلكتروني",
  "auth.password": "كلمة المرور",
  "auth.signIn": "تسجيل الدخول",
  "auth.forgotPassword": "هل نسيت كلمة المرور؟",
  "auth.hostSignIn": "سجّل الدخول عبر التطبيق الذي تنتمي إليه هذه الخدمة.",
  "auth.tooManySignIns": "محاولات تسجيل دخول كثيرة جدًا من عنوانك. حاول مرة أخرى بعد {seconds} ثانية.",
  "auth.enterEmailAndPassword": "أدخل بريدك الإلكتروني وكلمة المرور.",
  "auth.wrongEmailOrPassword": "البريد الإلكتروني أو كلمة المرور غير صحيحة.",
  "auth.accountLocked":
    "كلمات مرور خاطئة كثيرة جدًا: هذا الحساب مقفل لمدة {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}} أخرى.",
  // Workspace choice
  "auth.chooseWorkspaceTitle": "اختر مساحة عمل · qforms",
  "auth.chooseWorkspace": "اختر مساحة عمل",
  "auth.chooseWorkspaceIntro": "أنت عضو في عدة مساحات عمل. أيّها تريد أن تفتح؟ يمكنك التبديل لاحقًا.",
  "auth.chooseFromList": "اختر مساحة عمل من القائمة.",
  "auth.choiceExpired": "انتهت صلاحية هذا الاختيار أو تم بالفعل. سجّل الدخول مرة أخرى.",
  // One-time links
  "auth.ownerLinkIntro":
    "يسجّل هذا الرابط لمرة واحدة دخولك بصفتك مالك مساحة العمل. عيّن كلمة مرور بعد ذلك مباشرة من صفحة الحساب.",
  "auth.continue": "متابعة",
  "auth.ownerLinkSpent": "استُخدم رابط تسجيل الدخول هذا من قبل أو انتهت صلاحيته. سجّل الدخول بكلمة المرور.",
  "auth.memberLinkIntro":
    "أعطاك أحد مسؤولي مساحة عملك رابط تسجيل الدخول هذا لمرة واحدة. يعمل مرة واحدة، لمدة 15 دقيقة.",
  "auth.memberLinkSpent":
    "استُخدم رابط تسجيل الدخول هذا من قبل أو انتهت صلاحيته. اطلب رابطًا جديدًا، أو سجّل الدخول بكلمة المرور.",
  "auth.linkNotValidTitle": "رابط غير صالح · qforms",
  "auth.linkNotValid": "هذا الرابط غير صالح",
  "auth.linkGone": "لم يعد هذا الرابط يعمل",
  "auth.goToSignIn": "الذهاب إلى تسجيل الدخول",
  // Invitations
  "auth.joinTitle": "الانضمام إلى {workspace} · qforms",
  "auth.join": "الانضمام إلى {workspace}",
  "auth.invited": "أنت مدعو إلى مساحة العمل {workspace} بصفة {role}، بالعنوان {email}.",
  "auth.acceptInvitation": "قبول الدعوة",
  "auth.yourName": "اسمك",
  "auth.choosePassword": "اختر كلمة مرور (10 أحرف على الأقل)",
  "auth.joinButton": "انضمام",
  "auth.addressHasAccount": "لهذا العنوان حساب بالفعل: سجّل الدخول بكلمة مروره لقبول الدعوة.",
  "auth.passwordOf": "كلمة مرور {email}",
  "auth.signInAndJoin": "تسجيل الدخول والانضمام",
  "auth.accountElsewhere":
    "لهذا العنوان حساب بالفعل في مساحة عمل أخرى. سجّل الدخول إليه أولًا، ثم افتح هذه الدعوة مرة أخرى.",
  "auth.noPasswordYet": "لا توجد كلمة مرور بعد؟ عيّن واحدة عبر البريد الإلكتروني.",
  "auth.invitationUnknown": "رابط الدعوة هذا غير صالح: تحقّق من أنك نسخته كاملًا.",
  "auth.invitationGone": "قُبلت هذه الدعوة من قبل أو أُلغيت أو انتهت صلاحيتها. اطلب دعوة جديدة.",
  "auth.enterName": "أدخل اسمك (200 حرف على الأكثر).",
  "auth.passwordLength": "يجب أن تتكون كلمة المرور من 10 إلى 200 حرف.",
  "auth.enterPasswordOfAddress": "أدخل كلمة مرور هذا العنوان.",
  "auth.signInFirst": "لهذا العنوان حساب بالفعل: سجّل الدخول إليه أولًا، ثم افتح هذه الدعوة مرة أخرى.",
  "auth.wrongPassword": "كلمة مرور خاطئة.",
  "auth.tooManyAttempts": "محاولات كثيرة جدًا من عنوانك: حاول مرة أخرى بعد {seconds} ثانية",
  // Password reset
  "auth.forgotTitle": "نسيت كلمة المرور · qforms",
  "auth.sendLink": "أرسل لي رابطًا",
  "auth.forgotHelp":
    "إذا كان للعنوان حساب، فسيصلك عبر البريد الإلكتروني رابط لاختيار كلمة مرور جديدة (صالح لمدة ساعة). لم يصلك بريد؟ اطلب من أحد مسؤولي مساحة عملك رابط تسجيل دخول.",
  "auth.backToSignIn": "العودة إلى تسجيل الدخول",
  "auth.tooManyResets": "طلبات إعادة تعيين كلمة المرور كثيرة جدًا من عنوانك: حاول مرة أخرى بعد {seconds} ثانية",
  "auth.enterEmail": "أدخل عنوان بريد إلكتروني.",
  "auth.resetSent":
    "إذا كان لهذا العنوان حساب، فإن رابطًا لاختيار كلمة مرور جديدة في طريقه إليك. تحقّق من بريدك الإلكتروني.",
  "auth.newPasswordTitle": "اختر كلمة مرور جديدة · qforms",
  "auth.newPasswordHeading": "اختر كلمة مرور جديدة",
  "auth.newPassword": "كلمة المرور الجديدة (10 أحرف على الأقل)",
  "auth.savePassword": "حفظ كلمة المرور",
  "auth.signedOutElsewhere": "سيُسجَّل خروجك من كل مكان آخر بمجرد حفظها.",
  "auth.resetUnknown": "رابط إعادة تعيين كلمة المرور هذا غير صالح: تحقّق من أنك نسخته كاملًا.",
  "auth.resetGone": "استُخدم رابط إعادة تعيين كلمة المرور هذا من قبل أو انتهت صلاحيته. اطلب رابطًا جديدًا.",
  "auth.passwordChanged": "تم تغيير كلمة مرورك وانتهت جميع جلسات حسابك. سجّل الدخول بكلمة المرور الجديدة.",
  "auth.resetMailSubject": "اختر كلمة مرور جديدة لـ qforms",
  "auth.resetMailText":
    "طلب شخص ما (نأمل أن تكون أنت) اختيار كلمة مرور جديدة لـ {email}.\n\nاخترها من هنا (صالح لمدة ساعة، مرة واحدة):\n{link}\n\nإذا لم تطلب ذلك، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.",
  // The shell page before its script runs
  "auth.appTitle": "qforms",
  "auth.needsJavaScript": "يحتاج تطبيق qforms إلى JavaScript. تعمل الواجهة البرمجية بدونه: {docs}"
}
