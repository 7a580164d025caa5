import { useMutation } from '@tanstack/react-query';
import { paymentPaths, type CreatePaymentRequest } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const createPayment = (input: CreatePaymentRequest) =>
  api.post(paymentPaths.createPayment, input, {
    schema: responseSchema('CreatePaymentResponseSchema'),
  });

export const useCreatePayment = () => useMutation({ mutationFn: createPayment });
