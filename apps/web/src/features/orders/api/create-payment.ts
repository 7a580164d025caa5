import { useMutation } from '@tanstack/react-query';
import {
  CreatePaymentResponseSchema,
  paymentPaths,
  type CreatePaymentRequest,
} from '@portal/contract';
import { api } from '@/lib/http';

export const createPayment = (input: CreatePaymentRequest) =>
  api.post(paymentPaths.createPayment, input, { schema: CreatePaymentResponseSchema });

export const useCreatePayment = () => useMutation({ mutationFn: createPayment });
