import { useQueryClient } from '@tanstack/react-query';
import { User } from '@contracts/user';
import { apiJson } from '../../lib/api-client';
import { useApiMutation } from '../../lib/query-client';
import { USER_QUERY_KEY } from '../../lib/session';

/**
 * POST /api/user/complete-tour (part 2, section 7). The flag lives on the account, so the tour never
 * opens again on any device. The cached user is updated at once, then refetched.
 */
export function useCompleteTourMutation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: async () => User.parse(await apiJson('POST', '/api/user/complete-tour')),
    onMutate: () => {
      queryClient.setQueryData<User | null>(USER_QUERY_KEY, (old) => (old ? { ...old, hasCompletedTour: true } : old));
    },
    onSuccess: (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
  });
}
