/**
 * The application's pages before and around sign-in in English (sign-in,
 * workspace choice, one-time links, invitations, password reset) and the
 * password reset e-mail. ICU MessageFormat.
 */
export const auth = {
  // Sign-in
  "auth.signInTitle": "Sign in · qforms",
  "auth.signInHeading": "Sign in to qforms",
  "auth.email": "E-mail",
  "auth.password": "Password",
  "auth.signIn": "Sign in",
  "auth.forgotPassword": "Forgot your password?",
  "auth.hostSignIn": "Sign in through the application this service is part of.",
  "auth.tooManySignIns": "Too many sign-in attempts from your address. Try again in {seconds} seconds.",
  "auth.enterEmailAndPassword": "Enter your e-mail and password.",
  "auth.wrongEmailOrPassword": "Wrong e-mail or password.",
  "auth.accountLocked":
    "Too many wrong passwords: this account is locked for {minutes, plural, one {# more minute} other {# more minutes}}.",
  // Workspace choice
  "auth.chooseWorkspaceTitle": "Choose a workspace · qforms",
  "auth.chooseWorkspace": "Choose a workspace",
  "auth.chooseWorkspaceIntro":
    "You are a member of several workspaces. Which one do you want to open? You can switch later.",
  "auth.chooseFromList": "Choose a workspace from the list.",
  "auth.choiceExpired": "This choice has expired or was already made. Sign in again.",
  // One-time links
  "auth.ownerLinkIntro":
    "This one-time link signs you in as the workspace owner. Set a password right after, under Account.",
  "auth.continue": "Continue",
  "auth.ownerLinkSpent": "This sign-in link was already used or has expired. Sign in with your password.",
  "auth.memberLinkIntro":
    "An administrator of your workspace gave you this one-time sign-in link. It works once, for 15 minutes.",
  "auth.memberLinkSpent":
    "This sign-in link was already used or has expired. Ask for a new one, or sign in with your password.",
  "auth.linkNotValidTitle": "Link not valid · qforms",
  "auth.linkNotValid": "This link is not valid",
  "auth.linkGone": "This link no longer works",
  "auth.goToSignIn": "Go to sign-in",
  // Invitations
  "auth.joinTitle": "Join {workspace} · qforms",
  "auth.join": "Join {workspace}",
  "auth.invited": "You are invited to the workspace {workspace} as {role}, with the address {email}.",
  "auth.acceptInvitation": "Accept the invitation",
  "auth.yourName": "Your name",
  "auth.choosePassword": "Choose a password (at least 10 characters)",
  "auth.joinButton": "Join",
  "auth.addressHasAccount": "This address already has an account: sign in with its password to accept.",
  "auth.passwordOf": "Password of {email}",
  "auth.signInAndJoin": "Sign in and join",
  "auth.accountElsewhere":
    "This address already has an account in another workspace. Sign in to it first, then open this invitation again.",
  "auth.noPasswordYet": "No password yet? Set one by e-mail.",
  "auth.invitationUnknown": "This invitation link is not valid: check that you copied all of it.",
  "auth.invitationGone": "This invitation was already accepted, was revoked or has expired. Ask for a new one.",
  "auth.enterName": "Enter your name (at most 200 characters).",
  "auth.passwordLength": "The password must be 10 to 200 characters.",
  "auth.enterPasswordOfAddress": "Enter the password of this address.",
  "auth.signInFirst": "This address already has an account: sign in to it first, then open this invitation again.",
  "auth.wrongPassword": "Wrong password.",
  "auth.tooManyAttempts": "too many attempts from your address: try again in {seconds} seconds",
  // Password reset
  "auth.forgotTitle": "Forgot your password · qforms",
  "auth.sendLink": "Send me a link",
  "auth.forgotHelp":
    "If the address has an account, a link to choose a new password arrives by e-mail (valid an hour). No e-mail? Ask an administrator of your workspace for a sign-in link.",
  "auth.backToSignIn": "Back to sign-in",
  "auth.tooManyResets": "too many password reset requests from your address: try again in {seconds} seconds",
  "auth.enterEmail": "Enter an e-mail address.",
  "auth.resetSent": "If this address has an account, a link to choose a new password is on its way. Check your e-mail.",
  "auth.newPasswordTitle": "Choose a new password · qforms",
  "auth.newPasswordHeading": "Choose a new password",
  "auth.newPassword": "New password (at least 10 characters)",
  "auth.savePassword": "Save the password",
  "auth.signedOutElsewhere": "You are signed out everywhere else once it is saved.",
  "auth.resetUnknown": "This password reset link is not valid: check that you copied all of it.",
  "auth.resetGone": "This password reset link was already used or has expired. Ask for a new one.",
  "auth.passwordChanged":
    "Your password was changed and every session of your account ended. Sign in with the new password.",
  "auth.resetMailSubject": "Choose a new qforms password",
  "auth.resetMailText":
    "Someone (hopefully you) asked to choose a new password for {email}.\n\nChoose it here (valid for an hour, once):\n{link}\n\nIf you did not ask for this, ignore this e-mail: your password stays as it is.",
  // The shell page before its script runs
  "auth.appTitle": "qforms",
  "auth.needsJavaScript": "The qforms application needs JavaScript. The API works without it: {docs}"
}
