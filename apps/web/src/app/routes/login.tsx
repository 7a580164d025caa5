import { BrandPanel } from '@/features/auth/components/brand-panel';
import { LoginForm } from '@/features/auth/components/login-form';

/** The form comes first, so that on a phone it is what the screen opens on; the brand panel
 * takes the left half from 1024 px up. */
export function Component() {
  return (
    <main className="grid min-h-screen bg-slate-50 lg:grid-cols-2">
      <div className="flex items-center justify-center px-4 py-6 sm:px-8 sm:py-10">
        <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 id="login-title" className="text-2xl font-bold text-slate-900">
            Welcome Back
          </h1>
          <p className="mb-6 mt-1 text-sm text-slate-600">Sign in to your account</p>
          <LoginForm />
        </div>
      </div>
      <BrandPanel className="lg:order-first" />
    </main>
  );
}
