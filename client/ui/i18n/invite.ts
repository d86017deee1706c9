/** The invite page (what the invited person opens) and the invite form's follow-up, English and Arabic side by side. */
export const inviteEn = {
  "invite.details": "{inviter} invites you to “{location}”.",
  "invite.detailsNoInviter": "You are invited to “{location}”.",
  "invite.role": "You would join as: {role}",
  "invite.role.admin": "Admin: manages members, registries and settings",
  "invite.role.member": "Member: adds, edits and moves things",
  "invite.role.viewer": "Viewer: sees the inventory but changes nothing",
  "invite.role.owner": "Owner",
  "invite.expires": "The invitation works until {date}.",
  "invite.oneAddress": "Sign up or sign in with the email address the invitation was sent to.",
  "invite.dead": "This invitation no longer works: it was used, withdrawn or has expired. Ask the person who invited you for a new link.",
  "invite.noToken": "This page opens from an invitation link. Open the link you were sent again.",
  "invite.mailed": "The link was also mailed to {email}.",
  "invite.onceHint": "Copy it now: it is shown only once. You can make a new one with “Resend” below.",
} as const;

export const inviteAr: Record<keyof typeof inviteEn, string> = {
  "invite.details": "يدعوك {inviter} إلى «{location}».",
  "invite.detailsNoInviter": "أنت مدعو إلى «{location}».",
  "invite.role": "ستنضم بصفة: {role}",
  "invite.role.admin": "مشرف: يدير الأعضاء والسجلات والإعدادات",
  "invite.role.member": "عضو: يضيف الأشياء ويعدّلها وينقلها",
  "invite.role.viewer": "مشاهد: يرى المخزون ولا يغيّر شيئًا",
  "invite.role.owner": "مالك",
  "invite.expires": "تبقى الدعوة صالحة حتى {date}.",
  "invite.oneAddress": "أنشئ حسابًا أو سجّل الدخول بعنوان البريد الذي أُرسلت إليه الدعوة.",
  "invite.dead": "لم تعد هذه الدعوة صالحة: استُخدمت أو سُحبت أو انتهت مدتها. اطلب رابطًا جديدًا ممن دعاك.",
  "invite.noToken": "تُفتح هذه الصفحة من رابط دعوة. افتح الرابط الذي وصلك مرة أخرى.",
  "invite.mailed": "أُرسل الرابط أيضًا بالبريد إلى {email}.",
  "invite.onceHint": "انسخه الآن: لا يظهر إلا مرة واحدة. يمكنك إنشاء رابط جديد بزر «إعادة الإرسال» أدناه.",
};
