import type { auth as english } from "../en/auth.ts"

/** The sign-in pages and the password reset e-mail in German (formal "Sie"). */
export const auth: { readonly [K in keyof typeof english]: string } = {
  // Sign-in
  "auth.signInTitle": "Anmelden · qforms",
  "auth.signInHeading": "Bei qforms anmelden",
  "auth.email": "E-Mail",
  "auth.password": "Passwort",
  "auth.signIn": "Anmelden",
  "auth.forgotPassword": "Passwort vergessen?",
  "auth.hostSignIn": "Melden Sie sich über die Anwendung an, zu der dieser Dienst gehört.",
  "auth.tooManySignIns": "Zu viele Anmeldeversuche von Ihrer Adresse. Versuchen Sie es in {seconds} Sekunden erneut.",
  "auth.enterEmailAndPassword": "Geben Sie Ihre E-Mail-Adresse und Ihr Passwort ein.",
  "auth.wrongEmailOrPassword": "E-Mail-Adresse oder Passwort ist falsch.",
  "auth.accountLocked":
    "Zu viele falsche Passwörter: Dieses Konto ist noch {minutes, plural, one {# Minute} other {# Minuten}} gesperrt.",
  // Workspace choice
  "auth.chooseWorkspaceTitle": "Arbeitsbereich wählen · qforms",
  "auth.chooseWorkspace": "Arbeitsbereich wählen",
  "auth.chooseWorkspaceIntro":
    "Sie sind Mitglied mehrerer Arbeitsbereiche. Welchen möchten Sie öffnen? Sie können später wechseln.",
  "auth.chooseFromList": "Wählen Sie einen Arbeitsbereich aus der Liste.",
  "auth.choiceExpired": "Diese Auswahl ist abgelaufen oder wurde bereits getroffen. Melden Sie sich erneut an.",
  // One-time links
  "auth.ownerLinkIntro":
    "Dieser einmalige Link meldet Sie als Inhaber des Arbeitsbereichs an. Legen Sie gleich danach unter „Konto“ ein Passwort fest.",
  "auth.continue": "Weiter",
  "auth.ownerLinkSpent":
    "Dieser Anmeldelink wurde bereits verwendet oder ist abgelaufen. Melden Sie sich mit Ihrem Passwort an.",
  "auth.memberLinkIntro":
    "Ein Administrator Ihres Arbeitsbereichs hat Ihnen diesen einmaligen Anmeldelink gegeben. Er funktioniert einmal, 15 Minuten lang.",
  "auth.memberLinkSpent":
    "Dieser Anmeldelink wurde bereits verwendet oder ist abgelaufen. Fordern Sie einen neuen an oder melden Sie sich mit Ihrem Passwort an.",
  "auth.linkNotValidTitle": "Link ungültig · qforms",
  "auth.linkNotValid": "Dieser Link ist ungültig",
  "auth.linkGone": "Dieser Link funktioniert nicht mehr",
  "auth.goToSignIn": "Zur Anmeldung",
  // Invitations
  "auth.joinTitle": "{workspace} beitreten · qforms",
  "auth.join": "{workspace} beitreten",
  "auth.invited": "Sie sind in den Arbeitsbereich {workspace} als {role} eingeladen, mit der Adresse {email}.",
  "auth.acceptInvitation": "Einladung annehmen",
  "auth.yourName": "Ihr Name",
  "auth.choosePassword": "Wählen Sie ein Passwort (mindestens 10 Zeichen)",
  "auth.joinButton": "Beitreten",
  "auth.addressHasAccount":
    "Für diese Adresse gibt es bereits ein Konto: Melden Sie sich mit dessen Passwort an, um anzunehmen.",
  "auth.passwordOf": "Passwort von {email}",
  "auth.signInAndJoin": "Anmelden und beitreten",
  "auth.accountElsewhere":
    "Für diese Adresse gibt es bereits ein Konto in einem anderen Arbeitsbereich. Melden Sie sich zuerst dort an und öffnen Sie dann diese Einladung erneut.",
  "auth.noPasswordYet": "Noch kein Passwort? Legen Sie eines per E-Mail fest.",
  "auth.invitationUnknown": "Dieser Einladungslink ist ungültig: Prüfen Sie, ob Sie ihn vollständig kopiert haben.",
  "auth.invitationGone":
    "Diese Einladung wurde bereits angenommen, widerrufen oder ist abgelaufen. Fordern Sie eine neue an.",
  "auth.enterName": "Geben Sie Ihren Namen ein (höchstens 200 Zeichen).",
  "auth.passwordLength": "Das Passwort muss 10 bis 200 Zeichen lang sein.",
  "auth.enterPasswordOfAddress": "Geben Sie das Passwort dieser Adresse ein.",
  "auth.signInFirst":
    "Für diese Adresse gibt es bereits ein Konto: Melden Sie sich zuerst dort an und öffnen Sie dann diese Einladung erneut.",
  "auth.wrongPassword": "Falsches Passwort.",
  "auth.tooManyAttempts": "Zu viele Versuche von Ihrer Adresse: Versuchen Sie es in {seconds} Sekunden erneut",
  // Password reset
  "auth.forgotTitle": "Passwort vergessen · qforms",
  "auth.sendLink": "Link senden",
  "auth.forgotHelp":
    "Wenn es für die Adresse ein Konto gibt, kommt per E-Mail ein Link, mit dem Sie ein neues Passwort wählen (eine Stunde gültig). Keine E-Mail? Bitten Sie einen Administrator Ihres Arbeitsbereichs um einen Anmeldelink.",
  "auth.backToSignIn": "Zurück zur Anmeldung",
  "auth.tooManyResets":
    "Zu viele Anfragen zum Zurücksetzen des Passworts von Ihrer Adresse: Versuchen Sie es in {seconds} Sekunden erneut",
  "auth.enterEmail": "Geben Sie eine E-Mail-Adresse ein.",
  "auth.resetSent":
    "Wenn es für diese Adresse ein Konto gibt, ist ein Link zum Wählen eines neuen Passworts unterwegs. Sehen Sie in Ihren E-Mails nach.",
  "auth.newPasswordTitle": "Neues Passwort wählen · qforms",
  "auth.newPasswordHeading": "Neues Passwort wählen",
  "auth.newPassword": "Neues Passwort (mindestens 10 Zeichen)",
  "auth.savePassword": "Passwort speichern",
  "auth.signedOutElsewhere": "Sobald es gespeichert ist, werden Sie überall sonst abgemeldet.",
  "auth.resetUnknown":
    "Dieser Link zum Zurücksetzen des Passworts ist ungültig: Prüfen Sie, ob Sie ihn vollständig kopiert haben.",
  "auth.resetGone":
    "Dieser Link zum Zurücksetzen des Passworts wurde bereits verwendet oder ist abgelaufen. Fordern Sie einen neuen an.",
  "auth.passwordChanged":
    "Ihr Passwort wurde geändert und alle Sitzungen Ihres Kontos wurden beendet. Melden Sie sich mit dem neuen Passwort an.",
  "auth.resetMailSubject": "Neues qforms-Passwort wählen",
  "auth.resetMailText":
    "Jemand (hoffentlich Sie) hat darum gebeten, ein neues Passwort für {email} zu wählen.\n\nWählen Sie es hier (eine Stunde lang, einmal gültig):\n{link}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.",
  // The shell page before its script runs
  "auth.appTitle": "qforms",
  "auth.needsJavaScript": "Die qforms-Anwendung benötigt JavaScript. Die API funktioniert auch ohne: {docs}"
}
