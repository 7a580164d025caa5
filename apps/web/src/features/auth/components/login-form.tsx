import { lazy, Suspense, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import type { LoginRequest, SecondFactor } from '@portal/contract';
import { paths } from '@/config/paths';
import { Button } from '@/ui/button';
import { Field, type FieldProps } from '@/ui/field';
import { PasswordField } from '@/ui/password-field';
import {
  forgetRememberedLogin,
  readRememberedLogin,
  saveRememberedLogin,
} from '../utils/remembered-login';
/*
 * The first screen stays light: the contract's schema (and zod), the sign-in call and the
 * two-factor modal load when the customer first needs them, fetched as soon as the form takes
 * focus.
 */
const loadValidation = () => import('./login-validation');
const loadLogin = () => import('../api/login');
const loadTwoFactorDialog = () => import('./two-factor-dialog');
const TwoFactorDialog = lazy(() =>
  loadTwoFactorDialog().then((module) => ({ default: module.TwoFactorDialog })),
);
const emptyForm = {
  email: '',
  mobile: '',
  gstNo: '',
  tally_serialno: '',
  rememberMe: false,
};
type IdentityField = Omit<FieldProps, 'name'> & {
  name: Exclude<keyof LoginRequest, 'password' | 'rememberMe'>;
};
/** The account's identifiers, asked before the password. */
const identityFields: IdentityField[] = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'mobile', label: 'Mobile Number', type: 'tel', autoComplete: 'tel' },
  { name: 'gstNo', label: 'GST Number', autoComplete: 'off', autoCapitalize: 'characters' },
  {
    name: 'tally_serialno',
    label: 'Tally Serial Number',
    inputMode: 'numeric',
    autoComplete: 'off',
  },
];
const loginResolver: Resolver<LoginRequest> = async (values) =>
  (await loadValidation()).resolveLogin(values);
/** 'Welcome Back': the credentials step, then the two-factor modal (spec §2, §4, §5). */
export function LoginForm() {
  const [defaultValues] = useState(() => ({ ...emptyForm, ...readRememberedLogin() }));
  // the first field in error takes the focus; after a first try each change checks again
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({ defaultValues, resolver: loginResolver });
  const [verifying, setVerifying] = useState(false);
  // mounted from the first code step on, so that it can animate out when closed
  const [asked, setAsked] = useState(false);
  const [secondFactor, setSecondFactor] = useState<SecondFactor>('email');
  const submitButton = useRef<HTMLButtonElement>(null);
  const onSubmit = handleSubmit(async (credentials) => {
    void loadTwoFactorDialog();
    const { login } = await loadLogin();
    const result = await login(credentials);
    if (!result.success) {
      toast.error(result.message);
      return;
    }
    const { password: _password, rememberMe, ...remembered } = credentials;
    if (rememberMe) saveRememberedLogin(remembered);
    else forgetRememberedLogin();
    setSecondFactor(result.secondFactor);
    setAsked(true);
    setVerifying(true);
  });
  const preload = () => {
    void loadValidation();
    void loadLogin();
  };
  return (
    <>
      <form
        onSubmit={onSubmit}
        onFocus={preload}
        noValidate
        className="space-y-4"
        aria-labelledby="login-title"
      >
        {identityFields.map(({ name, ...props }) => (
          <Field key={name} error={errors[name]?.message} {...props} {...register(name)} />
        ))}
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          {/* on a touch screen the whole label is the 44 px target */}
          <label className="flex items-center gap-2 text-sm text-slate-700 pointer-coarse:min-h-11 pointer-coarse:pr-2">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-400 accent-blue-700 pointer-coarse:h-5 pointer-coarse:w-5"
              {...register('rememberMe')}
            />
            Remember me
          </label>
          <Link
            to={paths.resetPassword}
            className="text-sm font-medium text-blue-700 underline-offset-2 hover:underline"
          >
            Forgot password?
          </Link>
        </div>
        <Button
          ref={submitButton}
          type="submit"
          size="lg"
          className="w-full"
          disabled={isSubmitting}
        >
          {isSubmitting ? 'Signing in...' : 'Secure Login'}
        </Button>
      </form>
      {asked && (
        <Suspense fallback={null}>
          <TwoFactorDialog
            open={verifying}
            onOpenChange={setVerifying}
            secondFactor={secondFactor}
            returnFocus={() => submitButton.current}
          />
        </Suspense>
      )}
    </>
  );
}
