import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Types the demo account's credentials into the login form, as a person does. */
export async function fillCredentials({ rememberMe = false } = {}) {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText('Email'), 'demo@acme.example');
  await u.type(screen.getByLabelText('Mobile Number'), '9876543210');
  await u.type(screen.getByLabelText('GST Number'), '27AAPFU0939F1ZV');
  await u.type(screen.getByLabelText('Tally Serial Number'), '712345678');
  await u.type(screen.getByLabelText('Password'), 'Demo@12345');
  if (rememberMe) await u.click(screen.getByLabelText('Remember me'));
  return u;
}
