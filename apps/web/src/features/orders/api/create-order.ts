import { useMutation } from '@tanstack/react-query';
import { CreateOrderResponseSchema, orderPaths, type CreateOrderRequest } from '@portal/contract';
import { api } from '@/lib/http';

export const createOrder = (input: CreateOrderRequest) =>
  api.post(orderPaths.create, input, { schema: CreateOrderResponseSchema });

export const useCreateOrder = () => useMutation({ mutationFn: createOrder });
