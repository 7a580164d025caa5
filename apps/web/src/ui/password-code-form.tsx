import { zodResolver } from '@hookform/resolvers/zod';
import { useImperativeHandle, type ChangeEvent, type ReactNode, type Ref } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { cn } from '@/lib/cn';
import { Field, type FieldProps } from './field';
import { PasswordField } from './password-field';

/** One box of the form: what `Field` takes, less what the form manages, and the box's rules. */
export interface FormBox<Name extends string = string> extends Omit<
  FieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> {
  name: Name;
  /** What the box keeps of what is typed: digits only, say. */
  keep?(typed: string): string;
  /** Whether the box holds enough to be sent; unless said, a password anything, text non-blank. */
  isComplete?(value: string): boolean;
  /** Shown under the box: the button that sends the code, say. */
  after?: ReactNode;
}

/** The account's password, asked again to confirm a change. */
export const passwordBox = {
  name: 'password',
  label: 'Password',
  type: 'password',
  autoComplete: 'current-password',
} as const satisfies FormBox<'password'>;

/** A one-time code, from an e-mail or an app, in a font that tells 0 from O. */
export const codeBox = (box: Omit<FormBox<'code'>, 'name'>): FormBox<'code'> => ({
  autoComplete: 'one-time-code',
  ...box,
  name: 'code',
  className: cn('font-mono', box.className),
});

export interface PasswordCodeFormHandle {
  /** Empties a box and puts the focus in it: a new code was sent, and the old one is void. */
  clear(name: string): void;
}

type Values = Record<string, string>;

const filled = (value: string) => value !== '';
const notBlank = (value: string) => value.trim() !== '';

/**
 * A confirmation by a secret: a code, the password, or both (and, for a new e-mail address,
 * that address), checked by the contract's schema of what is sent. The action waits until every
 * box is complete; a message appears by its box when the form is sent and stays until it is
 * sent again, as the server's refusal does, and the focus stays on the action. The caller lays
 * out what follows the boxes (its messages and buttons), told whether the form may be sent.
 * Change `boxes` and `schema` for a next step: a box that goes is no longer sent.
 */
export function PasswordCodeForm<Input extends Values, Output extends Values>({
  schema,
  boxes,
  intro,
  actions,
  onSubmit,
  ref,
}: {
  schema: z.ZodType<Output, Input>;
  boxes: readonly FormBox<Extract<keyof Input, string>>[];
  /** Shown above the boxes. */
  intro?: ReactNode;
  actions(ready: boolean): ReactNode;
  onSubmit(values: Output): void;
  ref?: Ref<PasswordCodeFormHandle>;
}) {
  const {
    register,
    handleSubmit,
    control,
    resetField,
    setFocus,
    formState: { errors },
  } = useForm<Values, unknown, Output>({
    resolver: zodResolver<Values, unknown, Output>(schema),
    defaultValues: Object.fromEntries(boxes.map(({ name }) => [name, ''])),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    shouldUnregister: true,
  });
  const values = useWatch({ control });
  const ready = boxes.every(
    ({ name, type, isComplete = type === 'password' ? filled : notBlank }) =>
      isComplete(values[name] ?? ''),
  );

  useImperativeHandle(
    ref,
    () => ({
      clear(name) {
        resetField(name, { defaultValue: '' });
        setFocus(name);
      },
    }),
    [resetField, setFocus],
  );

  const submit = handleSubmit(onSubmit);
  return (
    <form
      onSubmit={(event) => (ready ? void submit(event) : event.preventDefault())}
      noValidate
      className="space-y-4"
    >
      {intro}
      {boxes.map(({ name, keep, isComplete: _isComplete, after, type, ...box }) => {
        const registered = register(name);
        const props = {
          ...box,
          ...registered,
          error: errors[name]?.message,
          onChange: (event: ChangeEvent<HTMLInputElement>) => {
            if (keep) event.target.value = keep(event.target.value);
            return registered.onChange(event);
          },
        };
        const input =
          type === 'password' ? (
            <PasswordField key={name} {...props} />
          ) : (
            <Field key={name} type={type} {...props} />
          );
        return after ? (
          <div key={name} className="space-y-2">
            {input}
            {after}
          </div>
        ) : (
          input
        );
      })}
      {actions(ready)}
    </form>
  );
}
