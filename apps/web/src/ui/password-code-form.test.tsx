import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  CloseAccountRequestSchema,
  EmailChangeCodeRequestSchema,
  EmailChangeRequestSchema,
  EnableTwoFactorRequestSchema,
} from '@portal/contract';
import { Button } from './button';
import {
  PasswordCodeForm,
  codeBox,
  passwordBox,
  type PasswordCodeFormHandle,
} from './password-code-form';

const sendButton = (ready: boolean) => (
  <Button type="submit" disabled={!ready}>
    Send
  </Button>
);

function closeAccountForm(onSubmit = vi.fn()) {
  render(
    <PasswordCodeForm
      schema={CloseAccountRequestSchema}
      boxes={[
        passwordBox,
        codeBox({ label: 'Code from the e-mail', inputMode: 'numeric', after: <p>Under it</p> }),
      ]}
      onSubmit={onSubmit}
      actions={sendButton}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('PasswordCodeForm', () => {
  it('shows the boxes in their order, the password with its toggle, the code as a one-time code', () => {
    closeAccountForm();
    const password = screen.getByLabelText('Password');
    const code = screen.getByLabelText('Code from the e-mail');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveClass('font-mono');
    expect(password.compareDocumentPosition(code)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    // what goes under a box sits with it
    expect(code.closest('.space-y-2')).toHaveTextContent('Under it');
  });

  it('keeps the action waiting until every box is filled, and sends nothing before', async () => {
    const { onSubmit, user } = closeAccountForm();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('Code from the e-mail'), '   ');
    await user.type(screen.getByLabelText('Password'), 'Secret@123');
    // a code of blanks is not a code
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('Code from the e-mail'), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Code from the e-mail'), '123456');
    expect(send).toBeEnabled();
  });

  it("sends what the contract's schema makes of the boxes", async () => {
    const onSubmit = vi.fn();
    render(
      <PasswordCodeForm
        schema={EnableTwoFactorRequestSchema}
        boxes={[
          codeBox({
            label: 'Code from the app',
            keep: (typed) => typed.replace(/[^\d ]/g, '').slice(0, 7),
            isComplete: (code) => code.replace(' ', '').length === 6,
          }),
          passwordBox,
        ]}
        onSubmit={onSubmit}
        actions={sendButton}
      />,
    );
    const user = userEvent.setup();
    const code = screen.getByLabelText('Code from the app');
    await user.type(code, '12a3 45x6789');
    // only what the box keeps: digits and one space, seven characters at most
    expect(code).toHaveValue('123 456');
    await user.type(screen.getByLabelText('Password'), 'Secret@123');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // the schema takes the space out
    expect(onSubmit.mock.calls[0]![0]).toEqual({ code: '123456', password: 'Secret@123' });
  });

  it("shows the schema's message by its box when sent, keeps it while typing, and leaves the focus on the action", async () => {
    const { onSubmit, user } = closeAccountForm();
    const code = screen.getByLabelText('Code from the e-mail');
    await user.type(screen.getByLabelText('Password'), 'Secret@123');
    await user.type(code, '12345');
    const send = screen.getByRole('button', { name: 'Send' });
    await user.click(send);
    expect(await screen.findByText('Enter the 6-digit code from the e-mail')).toHaveAttribute(
      'role',
      'alert',
    );
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription('Enter the 6-digit code from the e-mail');
    expect(send).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();

    // checked again only when sent again, as a refusal of the server would be
    await user.type(code, '6');
    expect(screen.getByText('Enter the 6-digit code from the e-mail')).toBeInTheDocument();
    await user.click(send);
    await vi.waitFor(() =>
      expect(screen.queryByText('Enter the 6-digit code from the e-mail')).not.toBeInTheDocument(),
    );
    expect(onSubmit.mock.calls[0]![0]).toEqual({ password: 'Secret@123', code: '123456' });
  });

  it('empties a box and focuses it when told to', async () => {
    const form = createRef<PasswordCodeFormHandle>();
    render(
      <PasswordCodeForm
        ref={form}
        schema={EmailChangeRequestSchema}
        boxes={[codeBox({ label: 'Code' })]}
        onSubmit={vi.fn()}
        actions={sendButton}
      />,
    );
    const user = userEvent.setup();
    const code = screen.getByLabelText('Code');
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    act(() => form.current!.clear('code'));
    expect(code).toHaveValue('');
    await vi.waitFor(() => expect(code).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('goes on to a next step in the same form: the action keeps the focus, a box gone is not sent', async () => {
    const confirm = vi.fn();
    function TwoSteps() {
      const [codeSent, setCodeSent] = useState(false);
      return codeSent ? (
        <PasswordCodeForm
          schema={EmailChangeRequestSchema}
          boxes={[codeBox({ label: 'Code' })]}
          onSubmit={confirm}
          actions={sendButton}
        />
      ) : (
        <PasswordCodeForm
          schema={EmailChangeCodeRequestSchema}
          boxes={[{ name: 'newEmail', label: 'New e-mail address', type: 'email' }, passwordBox]}
          onSubmit={() => setCodeSent(true)}
          actions={sendButton}
        />
      );
    }
    render(<TwoSteps />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New e-mail address'), 'new@acme.example');
    await user.type(screen.getByLabelText('Password'), 'Secret@123');
    const send = screen.getByRole('button', { name: 'Send' });
    await user.click(send);
    const code = await screen.findByLabelText('Code');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(send).toHaveFocus();
    expect(send).toBeDisabled();

    // typed in the second step, no message shows before it is sent
    await user.type(code, '12');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(code, '3456');
    await user.click(send);
    await vi.waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    // the strict schema would refuse the first step's boxes: they are gone
    expect(confirm.mock.calls[0]![0]).toEqual({ code: '123456' });
  });
});
