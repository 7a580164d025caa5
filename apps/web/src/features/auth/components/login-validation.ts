import { zodResolver } from '@hookform/resolvers/zod';
import { LoginRequestSchema } from '@portal/contract';

/** The credentials step's checks, from the contract; loaded apart from the form (zod is large). */
export const loginResolver = zodResolver(LoginRequestSchema);
