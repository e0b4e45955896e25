/** The contact page's form (`POST /api/contact`): its limits and the texts both sides show. */
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 150, message: 5000 } as const;

export const CONTACT_MESSAGES = {
  nameRequired: 'name is a required field',
  emailRequired: 'email is a required field',
  emailInvalid: 'email must be a valid email',
  subjectRequired: 'subject is a required field',
  messageRequired: 'message is a required field',
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  sent: 'Thank you for your message. We have sent you a confirmation by e-mail and will reply soon.',
  tooMany:
    'You have sent several messages in a short time. Please wait an hour, or call or WhatsApp us.',
} as const;

/** One page of the back office's Messages list. */
export const CONTACT_PAGE_SIZE = 20;
