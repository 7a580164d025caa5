import { useMutation } from '@tanstack/react-query';
import { orderPaths, type CreateOrderRequest } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const createOrder = (input: CreateOrderRequest) =>
  api.post(orderPaths.create, input, { schema: responseSchema('CreateOrderResponseSchema') });

export const useCreateOrder = () => useMutation({ mutationFn: createOrder });
